-- Brewing (data.brewing, from the knowledge's brewing.yaml): the brewing stand brews Minecraft's recipes (a glass
-- bottle is filled at water by fills.lua). The stand has an ingredient slot, a fuel slot and three bottle
-- slots; it brews on its node timer, as the furnace cooks: a brew takes `seconds` and turns every bottle the
-- ingredient has a recipe for into the recipe's result, using up one ingredient. Blaze powder is burnt when a brew
-- starts with no charge left and charges the stand for `brews_per_fuel` brews, as in Minecraft.

return function(brewing, look)
	if brewing.stand == nil then
		return
	end
	local recipes = brewing.recipes

	local function made(bottle, ingredient)
		local by_ingredient = recipes[bottle:get_name()]
		return by_ingredient ~= nil and by_ingredient[ingredient:get_name()] or nil
	end

	local function brewable(inv)
		local ingredient = inv:get_stack("ingredient", 1)
		if ingredient:is_empty() then
			return false
		end
		for _, bottle in ipairs(inv:get_list("bottles")) do
			if not bottle:is_empty() and made(bottle, ingredient) ~= nil then
				return true
			end
		end
		return false
	end

	local function brew(pos, elapsed)
		local meta = minetest.get_meta(pos)
		local inv = meta:get_inventory()
		local charge = meta:get_int("charge") -- brews left from the blaze powder burnt
		local progress = meta:get_float("progress") -- seconds the current brew has taken
		local left = elapsed
		while left > 0 and brewable(inv) do
			if progress == 0 then -- a brew starts: it takes a charge, burning a blaze powder if none is left
				if charge <= 0 then
					local fuel = inv:get_stack("fuel", 1)
					if fuel:get_name() ~= brewing.fuel then
						break
					end
					fuel:take_item()
					inv:set_stack("fuel", 1, fuel)
					charge = brewing.brews_per_fuel
				end
				charge = charge - 1
			end
			local step = math.min(left, brewing.seconds - progress)
			left = left - step
			progress = progress + step
			if progress >= brewing.seconds then
				local ingredient = inv:get_stack("ingredient", 1)
				for index, bottle in ipairs(inv:get_list("bottles")) do
					local result = not bottle:is_empty() and made(bottle, ingredient) or nil
					if result ~= nil then
						inv:set_stack("bottles", index, ItemStack(result))
					end
				end
				local used = ingredient:get_name()
				ingredient:take_item()
				local leaves = (brewing.leaves or {})[used]
				if leaves ~= nil and ingredient:is_empty() then -- dragon's breath leaves its bottle in the stand
					ingredient = ItemStack(leaves)
				elseif leaves ~= nil then
					minetest.add_item(pos, ItemStack(leaves))
				end
				inv:set_stack("ingredient", 1, ingredient)
				progress = 0
			end
		end
		if not brewable(inv) then
			progress = 0 -- an ingredient or the bottles taken out stop the brew, as in Minecraft
		end
		meta:set_int("charge", charge)
		meta:set_float("progress", progress)
		return brewable(inv) and (charge > 0 or progress > 0 or inv:get_stack("fuel", 1):get_name() == brewing.fuel)
	end

	local ingredients = {}
	for _, by_ingredient in pairs(recipes) do
		for ingredient in pairs(by_ingredient) do
			ingredients[ingredient] = true
		end
	end

	local formspec = "size[8,8.5]list[context;fuel;0.5,0.5;1,1;]list[context;ingredient;3.5,0.5;1,1;]" ..
		"list[context;bottles;2.5,2.25;3,1;]list[current_player;main;0,4.25;8,4;]" ..
		"listring[context;bottles]listring[current_player;main]listring[context;ingredient]" ..
		"listring[current_player;main]listring[context;fuel]listring[current_player;main]"

	local function start(pos)
		minetest.get_node_timer(pos):start(1.0)
	end

	minetest.override_item(brewing.stand, {
		_brew_seconds = brewing.seconds,
		on_construct = function(pos)
			local meta = minetest.get_meta(pos)
			meta:set_string("formspec", formspec)
			local inv = meta:get_inventory()
			inv:set_size("ingredient", 1)
			inv:set_size("fuel", 1)
			inv:set_size("bottles", brewing.bottles)
		end,
		on_timer = brew,
		on_metadata_inventory_put = start,
		on_metadata_inventory_take = start,
		on_metadata_inventory_move = start,
		allow_metadata_inventory_put = function(_, listname, _, stack)
			local name = stack:get_name()
			if listname == "fuel" then
				return name == brewing.fuel and stack:get_count() or 0
			elseif listname == "ingredient" then
				return ingredients[name] and stack:get_count() or 0
			end
			return recipes[name] ~= nil and 1 or 0 -- a bottle slot holds one potion
		end,
		allow_metadata_inventory_move = function()
			return 0
		end,
		can_dig = function(pos)
			local inv = minetest.get_meta(pos):get_inventory()
			return inv:is_empty("ingredient") and inv:is_empty("fuel") and inv:is_empty("bottles")
		end,
		tiles = look(brewing.stand, "#806040"),
	})
end
