-- The anvil (data.anvil, from the knowledge's anvil.yaml), doing what the text world's repair, rename and combine
-- atoms do, with the item taken from the player's inventory:
-- * rename: the item becomes its named item (`result`, minecraft:named_<item>), its wear kept;
-- * combine: the item and an enchanted book (used up) become its enchanted item (minecraft:enchanted_<item>);
-- * repair: a unit of one of the item's `materials` takes `share` of the most durability off its wear, or a second
--   one of the item (used up) makes it whole; the most worn of the player's items of the kind is the one repaired.
-- A rename or a combine is taken from the anvil's output as a crafted item: it runs the engine's craft callbacks
-- (minetest.on_craft), which the task runtime logs as the craft event the library's goals judge. Every work done is
-- a use of the anvil (Minecraft Wiki, Anvil: renaming, repairing and combining are its uses): it calls the
-- `_on_used_on(itemstack, user, pointed_thing)` of an item the work took (the pointed thing is the anvil): the one in
-- the player's hand when the work took it (the iron ingot held for a repair), else the item worked on. It does
-- nothing here; the taskverse runtime wraps it to log the anvil used holding that item, so a refused work is no use.
-- A player right-clicks an anvil for what the items it holds allow (a form, one button each); a scripted player acts
-- through the node's `_taskverse_anvil(pos, player, item)`, item being what the anvil gives (the named or enchanted
-- item, or the repaired item). Not modelled: experience levels, the anvil wearing, a typed-in name, the anvil's own
-- slots, and the refusal of a whole item (the text world repairs one too, restoring nothing).

local FORM = "minecraft:anvil"
local MOST_WEAR = 65535 -- the engine's wear of a worn-out tool

return function(anvil, on_buttons, shows_form)
	if anvil.stations == nil or #anvil.stations == 0 then
		return
	end
	local made = {} -- result -> {op, item}
	local by_item = {} -- item -> its renames and combines
	local repairs = {} -- item -> its repair materials
	for _, entry in ipairs(anvil.renames) do
		made[entry.result] = {op = "rename", item = entry.item, result = entry.result}
	end
	for _, entry in ipairs(anvil.combines) do
		made[entry.result] = {op = "combine", item = entry.item, result = entry.result}
	end
	for _, work in pairs(made) do
		by_item[work.item] = by_item[work.item] or {}
		table.insert(by_item[work.item], work)
	end
	for _, entry in ipairs(anvil.repairs) do
		repairs[entry.item] = entry.materials
	end

	-- the index in the player's main list of the most worn stack of an item, or nil
	local function most_worn(inv, item)
		local best, wear
		for i, stack in ipairs(inv:get_list("main") or {}) do
			if stack:get_name() == item and (wear == nil or stack:get_wear() > wear) then
				best, wear = i, stack:get_wear()
			end
		end
		return best
	end

	-- the anvil used: holding the item in hand before the work (`hand`) when the work took it (`taken`: item names),
	-- else the one worked on
	local function report(pos, player, hand, worked, taken)
		local held = worked
		for _, name in ipairs(taken) do
			if name == hand then
				held = hand
			end
		end
		local def = minetest.registered_items[held]
		if def ~= nil and def._on_used_on ~= nil then
			def._on_used_on(ItemStack(held), player, {type = "node", under = pos,
				above = {x = pos.x, y = pos.y + 1, z = pos.z}})
		end
	end

	local function give(player, inv, stack)
		local left = inv:add_item("main", stack)
		if not left:is_empty() then
			minetest.add_item(player:get_pos(), left)
		end
	end

	-- a rename or a combine: the item (and the book) taken, the result given as crafted
	local function make(pos, player, work)
		local hand = player:get_wielded_item():get_name() -- before the work: it may take the stack in hand
		local inv = player:get_inventory()
		local index = most_worn(inv, work.item)
		if index == nil then
			return false, "no " .. work.item .. " in the inventory to " .. work.op
		end
		local book = ItemStack(anvil.book)
		if work.op == "combine" and not inv:contains_item("main", book) then
			return false, "no " .. anvil.book .. " to combine with " .. work.item
		end
		local stack = inv:get_stack("main", index)
		local input = stack:take_item(1)
		inv:set_stack("main", index, stack)
		local used = {input}
		if work.op == "combine" then
			used[2] = inv:remove_item("main", book)
		end
		local out = ItemStack(work.result)
		out:set_wear(input:get_wear())
		give(player, inv, minetest.on_craft(out, player, used, inv))
		report(pos, player, hand, work.item, work.op == "combine" and {anvil.book} or {})
		return true
	end

	local function repair(pos, player, item)
		local inv = player:get_inventory()
		local index = most_worn(inv, item)
		if index == nil then
			return false, "no " .. item .. " in the inventory to repair"
		end
		local stack = inv:get_stack("main", index)
		local hand = player:get_wielded_item():get_name()
		local wear, taken
		-- the material in hand first (the player holds the unit it puts in), else the first one held
		local materials = {}
		for _, material in ipairs(repairs[item]) do
			table.insert(materials, material == hand and 1 or #materials + 1, material)
		end
		for _, material in ipairs(materials) do
			if inv:contains_item("main", ItemStack(material)) then
				inv:remove_item("main", ItemStack(material))
				wear = math.max(0, stack:get_wear() - math.floor(MOST_WEAR * anvil.share))
				taken = material
				break
			end
		end
		if wear == nil then
			-- a second one: the least worn other stack of the kind, used up
			local other, least
			for i, s in ipairs(inv:get_list("main") or {}) do
				if i ~= index and s:get_name() == item and (least == nil or s:get_wear() < least) then
					other, least = i, s:get_wear()
				end
			end
			if other == nil and stack:get_count() < 2 then
				local needs = #repairs[item] > 0 and table.concat(repairs[item], " or ") .. " or " or ""
				return false, "no " .. needs .. "second " .. item .. " to repair it with"
			end
			if other ~= nil then
				local s = inv:get_stack("main", other)
				s:take_item(1)
				inv:set_stack("main", other, s)
			else
				stack:take_item(1)
			end
			wear = 0
		end
		stack:set_wear(wear)
		inv:set_stack("main", index, stack)
		report(pos, player, hand, item, {taken})
		return true
	end

	-- pos is the anvil's: a scripted player stands at one as a player must to use it
	local function scripted(pos, player, item)
		if made[item] ~= nil then
			return make(pos, player, made[item])
		end
		if repairs[item] ~= nil then
			return repair(pos, player, item)
		end
		return false, "the anvil gives no " .. item
	end

	-- every item an anvil's work takes reports the anvil's use (the runtime wraps the callback of the task's items)
	local takes = {[anvil.book] = true}
	for item, materials in pairs(repairs) do
		takes[item] = true
		for _, material in ipairs(materials) do
			takes[material] = true
		end
	end
	for _, work in pairs(made) do
		takes[work.item] = true
	end
	for item in pairs(takes) do
		local def = minetest.registered_items[item]
		if def ~= nil and rawget(def, "_on_used_on") == nil then
			minetest.override_item(item, {_on_used_on = function() end})
		end
	end

	-- what a player is offered while the form is open, and at which anvil
	local open = {}

	local function show(player, pos)
		local name = player:get_player_name()
		local offered, seen = {}, {}
		for _, stack in ipairs(player:get_inventory():get_list("main") or {}) do
			local item = stack:get_name()
			if not seen[item] then
				seen[item] = true
				for _, work in ipairs(by_item[item] or {}) do
					offered[#offered + 1] = {item = work.result, label = work.op .. " " .. item .. ": " .. work.result}
				end
				if repairs[item] ~= nil then
					offered[#offered + 1] = {item = item, label = "repair " .. item}
				end
			end
		end
		table.sort(offered, function(a, b) return a.label < b.label end)
		open[name] = {pos = pos, offered = offered}
		local rows = {"size[10," .. (#offered * 0.6 + 1.2) .. "]",
			"label[0,0;" .. minetest.formspec_escape(#offered > 0 and "Anvil" or
				"Anvil: nothing in the inventory it works on") .. "]"}
		for i, entry in ipairs(offered) do
			rows[#rows + 1] = "button[0," .. (i * 0.6) .. ";10,0.6;anvil_" .. i .. ";" ..
				minetest.formspec_escape(entry.label) .. "]"
		end
		minetest.show_formspec(name, FORM, table.concat(rows))
	end

	for _, station in ipairs(anvil.stations) do
		shows_form(station, {
			_taskverse_anvil = scripted,
			_taskverse_work_reports_use = true, -- a right-click with an item is no repair by itself
		}, show)
	end

	on_buttons(FORM, "anvil_", open, function(shown) return shown.offered end, function(player, shown, entry)
		return scripted(shown.pos, player, entry.item)
	end)
end
