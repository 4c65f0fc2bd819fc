-- The furnace: a source slot, a fuel slot and four output slots; it cooks on its node timer, as minetest_game's
-- furnace does, so a player (or the task harness) fills it, lets time pass and takes the output.

return function(name, look)
	local function cook(pos, elapsed)
		local inv = minetest.get_meta(pos):get_inventory()
		local meta = minetest.get_meta(pos)
		local burn = meta:get_float("burn") -- seconds of fuel left
		local progress = meta:get_float("progress") -- seconds the current item has cooked
		local left = elapsed
		while left > 0 do
			local src = inv:get_list("src")
			local cooked, after = minetest.get_craft_result({method = "cooking", width = 1, items = src})
			if cooked.time == 0 or not inv:room_for_item("dst", cooked.item) then
				progress = 0
				break
			end
			if burn <= 0 then
				local fuel, rest = minetest.get_craft_result({method = "fuel", width = 1, items = inv:get_list("fuel")})
				if fuel.time == 0 then
					break
				end
				inv:set_stack("fuel", 1, rest.items[1])
				burn = fuel.time
			end
			local step = math.min(left, burn, cooked.time - progress)
			left = left - step
			burn = burn - step
			progress = progress + step
			if progress >= cooked.time then
				inv:add_item("dst", cooked.item)
				inv:set_stack("src", 1, after.items[1])
				progress = 0
			end
		end
		meta:set_float("burn", math.max(0, burn))
		meta:set_float("progress", progress)
		local busy = not inv:is_empty("src") and (burn > 0 or not inv:is_empty("fuel"))
		return busy
	end

	local formspec = "size[8,8.5]list[context;src;2.75,0.5;1,1;]list[context;fuel;2.75,2.5;1,1;]" ..
		"list[context;dst;4.75,0.96;2,2;]list[current_player;main;0,4.25;8,4;]listring[context;dst]" ..
		"listring[current_player;main]listring[context;src]listring[current_player;main]" ..
		"listring[context;fuel]listring[current_player;main]"

	minetest.override_item(name, {
		paramtype2 = "facedir",
		on_construct = function(pos)
			local meta = minetest.get_meta(pos)
			meta:set_string("formspec", formspec)
			local inv = meta:get_inventory()
			inv:set_size("src", 1)
			inv:set_size("fuel", 1)
			inv:set_size("dst", 4)
		end,
		on_timer = cook,
		on_metadata_inventory_put = function(pos)
			minetest.get_node_timer(pos):start(1.0)
		end,
		on_metadata_inventory_take = function(pos)
			minetest.get_node_timer(pos):start(1.0)
		end,
		allow_metadata_inventory_put = function(_, listname, _, stack)
			if listname == "dst" then
				return 0
			end
			if listname == "fuel" then
				local fuel = minetest.get_craft_result({method = "fuel", width = 1, items = {stack}})
				return fuel.time > 0 and stack:get_count() or 0
			end
			return stack:get_count()
		end,
		can_dig = function(pos)
			local inv = minetest.get_meta(pos):get_inventory()
			return inv:is_empty("src") and inv:is_empty("fuel") and inv:is_empty("dst")
		end,
		tiles = look(name, "#606060"),
	})
end
