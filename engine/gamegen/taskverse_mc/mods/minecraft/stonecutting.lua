-- The stonecutter (data.stonecutting, from the knowledge's stonecutting.yaml): one item of a cut's `input` taken from
-- the player's inventory gives `count` of its `output`. Minecraft counts the result taken from the stonecutter's
-- output slot as crafted, so a cut runs the engine's craft callbacks (minetest.on_craft), which the task runtime
-- logs as the craft event. A player right-clicks the stonecutter for the cuts of what it holds (a form, one button a
-- cut); a scripted player cuts through the node's `_taskverse_cut(pos, player, output)`, which takes the first
-- cut giving the output whose input the player holds. Not modelled: the stonecutter's own input slot (the item is
-- cut straight from the inventory).

local FORM = "minecraft:stonecutter"

return function(stonecutting, on_buttons, shows_form)
	local station = stonecutting.station
	local def = station ~= nil and minetest.registered_nodes[station] or nil
	if def == nil then
		return
	end
	local by_output, by_input = {}, {}
	for _, cut in ipairs(stonecutting.cuts) do
		by_output[cut.output] = by_output[cut.output] or {}
		table.insert(by_output[cut.output], cut)
		by_input[cut.input] = by_input[cut.input] or {}
		table.insert(by_input[cut.input], cut)
	end

	local function cut_one(player, cut)
		local inv = player:get_inventory()
		local input = ItemStack(cut.input)
		if not inv:contains_item("main", input) then
			return false, "no " .. cut.input .. " in the inventory to cut"
		end
		inv:remove_item("main", input)
		local made = minetest.on_craft(ItemStack(cut.output .. " " .. cut.count), player, {input}, inv)
		local left = inv:add_item("main", made)
		if not left:is_empty() then
			minetest.add_item(player:get_pos(), left)
		end
		return true
	end

	-- pos is the stonecutter's: a scripted player stands at one as a player must to use it
	local function scripted_cut(_, player, output)
		local cuts = by_output[output]
		if cuts == nil then
			return false, "the stonecutter cuts nothing into " .. output
		end
		local inv = player:get_inventory()
		for _, cut in ipairs(cuts) do
			if inv:contains_item("main", ItemStack(cut.input)) then
				return cut_one(player, cut)
			end
		end
		return false, "no item the stonecutter cuts into " .. output .. " in the inventory"
	end

	-- the cuts a player is offered while the form is open
	local open = {}

	local function show(player)
		local name = player:get_player_name()
		local offered = {}
		local inv = player:get_inventory()
		local seen = {}
		for _, stack in ipairs(inv:get_list("main") or {}) do
			local item = stack:get_name()
			if by_input[item] ~= nil and not seen[item] then
				seen[item] = true
				for _, cut in ipairs(by_input[item]) do
					offered[#offered + 1] = cut
				end
			end
		end
		open[name] = offered
		local rows = {"size[10," .. (#offered * 0.6 + 1.2) .. "]",
			"label[0,0;" .. minetest.formspec_escape(#offered > 0 and "Stonecutter" or
				"Stonecutter: nothing in the inventory it cuts") .. "]"}
		for i, cut in ipairs(offered) do
			local label = cut.count .. " " .. cut.output .. " from 1 " .. cut.input
			rows[#rows + 1] = "button[0," .. (i * 0.6) .. ";10,0.6;cut_" .. i .. ";" ..
				minetest.formspec_escape(label) .. "]"
		end
		minetest.show_formspec(name, FORM, table.concat(rows))
	end

	shows_form(station, {_taskverse_cut = scripted_cut}, show)

	on_buttons(FORM, "cut_", open, function(offered) return offered end, function(player, _, cut)
		return cut_one(player, cut)
	end)
end
