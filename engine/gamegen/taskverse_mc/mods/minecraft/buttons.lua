-- A form of numbered buttons (a villager's or a wandering trader's offers, a stonecutter's cuts): `open[player]`
-- holds what the player was shown while the form is open. Pressing button `<prefix><i>` acts on the i-th entry of
-- `entries_of(shown)`; a refusal is told to the player in the chat. Closing the form or leaving forgets it.

local function on_buttons(form, prefix, open, entries_of, act)
	minetest.register_on_player_receive_fields(function(player, formname, fields)
		if formname ~= form then
			return false
		end
		local name = player:get_player_name()
		local shown = open[name]
		if shown == nil or fields.quit then
			open[name] = nil
			return true
		end
		for i, entry in ipairs(entries_of(shown)) do
			if fields[prefix .. i] ~= nil then
				local ok, err = act(player, shown, entry)
				if not ok then
					minetest.chat_send_player(name, err)
				end
			end
		end
		return true
	end)

	minetest.register_on_leaveplayer(function(player)
		open[player:get_player_name()] = nil
	end)
end

-- A station whose right-click shows a player its form (the stonecutter's cuts, the anvil's work), after the node's
-- own click (its screen, which the runtime logs as the interact): `show(player, pos)`; `fields` go on the node too.
local function shows_form(station, fields, show)
	local def = minetest.registered_nodes[station]
	if def == nil then
		return
	end
	local original = def.on_rightclick
	fields.on_rightclick = function(pos, node, clicker, itemstack, pointed_thing)
		local back = itemstack
		if original ~= nil then
			back = original(pos, node, clicker, itemstack, pointed_thing)
		end
		if clicker ~= nil and clicker:is_player() then
			show(clicker, pos)
		end
		return back
	end
	minetest.override_item(station, fields)
end

return on_buttons, shows_form
