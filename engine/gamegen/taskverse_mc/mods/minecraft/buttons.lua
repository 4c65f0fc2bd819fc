-- A form of numbered buttons (a villager's or a wandering trader's offers, a stonecutter's cuts): `open[player]`
-- holds what the player was shown while the form is open. Pressing button `<prefix><i>` acts on the i-th entry of
-- `entries_of(shown)`; a refusal is told to the player in the chat. Closing the form or leaving forgets it.

return function(form, prefix, open, entries_of, act)
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
