-- Trading: a villager claims the nearest job site block within `trading.job_radius` nodes that no other villager
-- has claimed (when it first trades at it or shows its offers: one that refuses the trade leaves it to the next; a
-- job site dug is free again), takes its profession (for as long as the block stands) and trades that profession's
-- offers
-- (`trades.yaml`): the price (emeralds and the trade's other items, or the items it buys) is taken from the
-- player's inventory and the goods given. A player right-clicks a villager for its offers (a form, one button an
-- offer); a scripted player trades through `_taskverse_trade(self, player, item)`, which takes the first offer of
-- the item whose price the player holds.
-- Levels (`trading.levels`, trades.yaml): each offer has a level, and a villager trades it once its experience in
-- its profession reaches that level's (10 apprentice, 70 journeyman, 150 expert, 250 master); each trade adds the
-- offer's `xp`. An offer above the villager's level is refused with what it needs ("needs an apprentice librarian
-- (10 experience), has 0") and not shown in its form. The experience is the villager's, kept per profession
-- (`self._experience`, saved with the mob): a villager moved to another job site starts that profession anew. A
-- start gives the villagers it summons the experience its task names (`_taskverse_experience(self, by_profession)`,
-- which the taskverse runtime calls), as the text world's start gives a villager raised to a level.
-- Uses (`uses`, trades.yaml's `maxUses`): a villager makes each offer that many times, then the offer is locked: a
-- trade past them is refused ("the librarian's minecraft:bookshelf offer is locked: 12 of 12 trades made") and the
-- locked offer is not shown in its form. The count of trades made is the villager's, per profession and offer
-- (`self._trades`, saved with the mob as its experience is); a start's villagers start at none. The game does not
-- restock (the world model has no restock wait either): more trades of a locked offer take another villager.

-- The wandering trader (`trading.wandering`): each trader draws its offers once, the first time it is traded with
-- or shown, as Minecraft's trader does when it spawns: `picks` distinct offers of each pool (5 of the generic pool,
-- 1 of the rare one), uniformly, and trades only those, each up to its `uses` times (locked after them, as a
-- villager's offer is). The draw is a PcgRandom seeded
-- from the map seed and the trader's number in the world (the 1st, 2nd... trader whose offers were drawn, counted
-- in the mod's storage): the same map seed and the same play draw the same offers, another seed others.

local storage = minetest.get_mod_storage()

local function stack(entry)
	return ItemStack(entry.item .. " " .. entry.count)
end

local function affords(inv, offer)
	for _, price in ipairs(offer.price) do
		if not inv:contains_item("main", stack(price)) then
			return false
		end
	end
	return true
end

local function deal(player, offer)
	local inv = player:get_inventory()
	if not affords(inv, offer) then
		return false, "the price of " .. offer.gives .. " is not in the inventory"
	end
	for _, price in ipairs(offer.price) do
		inv:remove_item("main", stack(price))
	end
	local left = inv:add_item("main", ItemStack(offer.gives .. " " .. offer.count))
	if not left:is_empty() then
		minetest.add_item(player:get_pos(), left)
	end
	return true
end

-- Why an offer with `made` trades made is locked (its `uses` reached), or nil: one meaning for a villager's offers and
-- a wandering trader's.
local function locked(who, offer, made)
	if made < offer.uses then
		return nil
	end
	return who .. "'s " .. offer.gives .. " offer is locked: " .. made .. " of " .. offer.uses .. " trades made"
end

-- A form of offers, one button each, and the offers it shows while open (`open[player] = {offers, take}`).
local function offer_form(name, form, title, offers)
	local rows = {"size[10," .. (#offers * 0.6 + 1.2) .. "]", "label[0,0;" .. minetest.formspec_escape(title) .. "]"}
	for i, offer in ipairs(offers) do
		local price = {}
		for _, p in ipairs(offer.price) do
			price[#price + 1] = p.count .. " " .. p.item
		end
		local label = offer.count .. " " .. offer.gives .. " for " .. table.concat(price, " and ")
		rows[#rows + 1] = "button[0," .. (i * 0.6) .. ";10,0.6;offer_" .. i .. ";" ..
			minetest.formspec_escape(label) .. "]"
	end
	minetest.show_formspec(name, form, table.concat(rows))
end

-- the offers a form of offers shows (`open[player] = {offers = ..., ...}`)
local function offers_shown(shown)
	return shown.offers
end

local function wandering_trader(wandering, on_buttons)
	local def = wandering.trader ~= nil and minetest.registered_entities[wandering.trader] or nil
	if def == nil then
		return
	end
	local FORM = "minecraft:wandering_trade"

	-- a number from the map seed and the trader's number (sha1: the seed may be any 64-bit string)
	local function seed_for(n)
		local hex = minetest.sha1(minetest.get_mapgen_setting("seed") .. ":wandering_trader:" .. n)
		return tonumber(hex:sub(1, 8), 16)
	end

	local function offers_of(self)
		if self._offers ~= nil then
			return self._offers
		end
		local n = storage:get_int("wandering_traders") + 1
		storage:set_int("wandering_traders", n)
		local random = PcgRandom(seed_for(n))
		local drawn = {}
		for _, pool in ipairs(wandering.pools) do
			local order = {}
			for i = 1, #pool.offers do
				order[i] = i
			end
			for i = 1, pool.picks do -- a partial Fisher-Yates shuffle: picks distinct offers, each equally likely
				local j = random:next(i, #order)
				order[i], order[j] = order[j], order[i]
				local offer = pool.offers[order[i]]
				if offer.gives ~= "" then
					drawn[#drawn + 1] = {gives = offer.gives, count = offer.count, price = offer.price,
						uses = offer.uses, made = 0}
				end
			end
		end
		self._offers = drawn
		return drawn
	end

	def._taskverse_trade = function(self, player, item)
		local has, refused = false, nil
		for _, offer in ipairs(offers_of(self)) do
			if offer.gives == item then
				has = true
				local why = locked("the wandering trader", offer, offer.made)
				if why ~= nil then
					refused = refused or why
				elseif affords(player:get_inventory(), offer) then
					local ok, err = deal(player, offer)
					if ok then
						offer.made = offer.made + 1
					end
					return ok, err
				end
			end
		end
		if not has then
			return false, "this wandering trader does not offer " .. item
		end
		return false, refused or ("the player holds no price of " .. item .. " the wandering trader asks")
	end

	-- the offers a trader shows: those not locked
	local function open_offers(self)
		local out = {}
		for _, offer in ipairs(offers_of(self)) do
			if locked("the wandering trader", offer, offer.made) == nil then
				out[#out + 1] = offer
			end
		end
		return out
	end

	local open = {}
	def.on_rightclick = function(self, clicker)
		if clicker == nil or not clicker:is_player() then
			return
		end
		local name = clicker:get_player_name()
		open[name] = {trader = self, offers = open_offers(self)}
		offer_form(name, FORM, "Wandering trader", open[name].offers)
	end

	on_buttons(FORM, "offer_", open, offers_shown, function(player, shown, offer)
		return shown.trader._taskverse_trade(shown.trader, player, offer.gives)
	end)
end

return function(trading, on_buttons)
	if trading.wandering ~= nil and trading.wandering.pools ~= nil then
		wandering_trader(trading.wandering, on_buttons)
	end
	local villager = trading.villager
	local def = villager ~= "" and minetest.registered_entities[villager] or nil
	if def == nil then
		return
	end
	-- a villager does not despawn in Minecraft (unlike a hostile mob): mobs_redo removes a mob whose map block
	-- unloads unless its lifetimer is 20000 or more (its mark of a kept mob); a villager the player left keeps its
	-- experience
	def.lifetimer = 20000
	local FORM = "minecraft:trade"
	local sites, by_site = {}, {}
	for _, prof in ipairs(trading.professions) do
		sites[#sites + 1] = prof.job_site
		by_site[prof.job_site] = prof
	end

	-- level name -> the experience it is reached at
	local threshold = {}
	for _, level in ipairs(trading.levels or {}) do
		threshold[level.level] = level.xp
	end

	local function experience(self, prof)
		return (self._experience or {})[prof.profession] or 0
	end

	-- whether the villager has reached the offer's level, else why not
	local function reached(self, prof, offer)
		local needs, has = threshold[offer.level] or 0, experience(self, prof)
		if has >= needs then
			return true
		end
		local article = offer.level:match("^[aeiou]") and "an " or "a "
		return false, "needs " .. article .. offer.level .. " " .. prof.profession .. " (" .. needs ..
			" experience), has " .. has
	end

	-- the trades the villager made of its profession's i-th offer (`self._trades[profession][i]`)
	local function made(self, prof, i)
		return ((self._trades or {})[prof.profession] or {})[i] or 0
	end

	-- why the villager's i-th offer is locked (its uses made), or nil
	local function used_up(self, prof, i)
		return locked("the " .. prof.profession, prof.offers[i], made(self, prof, i))
	end

	-- the offers the villager trades now: reached by its level, not locked (with their places in the offers)
	local function unlocked(self, prof)
		local out, at = {}, {}
		for i, offer in ipairs(prof.offers) do
			if reached(self, prof, offer) and used_up(self, prof, i) == nil then
				out[#out + 1] = offer
				at[#out] = i
			end
		end
		return out, at
	end

	-- a trade of the i-th offer made: the price taken, the goods given, the trade counted, the experience added
	local function trade(self, player, prof, i)
		local why = used_up(self, prof, i)
		if why ~= nil then
			return false, why
		end
		local offer = prof.offers[i]
		local ok, err = deal(player, offer)
		if ok then
			self._trades = self._trades or {}
			self._trades[prof.profession] = self._trades[prof.profession] or {}
			self._trades[prof.profession][i] = made(self, prof, i) + 1
			self._experience = self._experience or {}
			self._experience[prof.profession] = experience(self, prof) + (offer.xp or 0)
		end
		return ok, err
	end

	def._taskverse_experience = function(self, by_profession)
		self._experience = {}
		for prof, xp in pairs(by_profession or {}) do
			self._experience[prof] = xp
		end
		self._trades = {} -- a start's villager has made no trade yet
	end

	-- job site position (hash) -> the villager that claimed it; a villager keeps its claim while the block stands
	local claimed = {}

	-- a job site dug is no one's: the villager that claimed it forgets it (as Minecraft's loses its job site), so the
	-- block placed again is free for the villager that first trades at it
	minetest.register_on_dignode(function(pos, oldnode)
		if by_site[oldnode.name] == nil then
			return
		end
		local key = minetest.hash_node_position(pos)
		local owner = claimed[key]
		if owner ~= nil and owner._job_site ~= nil and vector.equals(owner._job_site, pos) then
			owner._job_site = nil
		end
		claimed[key] = nil
	end)

	local function claim(self, site)
		self._job_site = site
		claimed[minetest.hash_node_position(site)] = self
	end

	-- The villager's profession: its job site's, else the nearest free job site's within `job_radius`, and that
	-- site when it is not the villager's yet (claimed by `claim` when the villager trades at it or shows its offers:
	-- a villager that refuses a trade leaves a free job site to the next)
	local function profession(self)
		local held = self._job_site
		if held ~= nil then
			local key = minetest.hash_node_position(held)
			local owner = claimed[key]
			local prof = by_site[minetest.get_node(held).name]
			if prof ~= nil and (owner == nil or owner == self or owner.object:get_pos() == nil) then
				claimed[key] = self
				return prof
			end
			if owner == self then
				claimed[key] = nil
			end
			self._job_site = nil
		end
		local pos = self.object:get_pos()
		if pos == nil then
			return nil
		end
		local r = trading.job_radius
		local best, best_d
		for _, site in ipairs(minetest.find_nodes_in_area(vector.subtract(pos, r), vector.add(pos, r), sites)) do
			local d = vector.distance(site, pos)
			local owner = claimed[minetest.hash_node_position(site)]
			local free = owner == nil or owner == self or owner.object:get_pos() == nil
			if free and (best == nil or d < best_d) then
				best, best_d = site, d
			end
		end
		if best == nil then
			return nil
		end
		return by_site[minetest.get_node(best).name], best
	end

	def._taskverse_trade = function(self, player, item)
		local prof, site = profession(self)
		if prof == nil then
			return false, "the villager has no job site block within " .. trading.job_radius .. " nodes"
		end
		local inv = player:get_inventory()
		local sold, refused = false, nil
		for i, offer in ipairs(prof.offers) do
			if offer.gives == item then
				sold = true
				local ok, why = reached(self, prof, offer)
				local lock = ok and used_up(self, prof, i) or nil
				if not ok then
					refused = refused or ("the villager's offer of " .. item .. " " .. why)
				elseif lock ~= nil then
					refused = refused or lock
				elseif affords(inv, offer) then
					if site ~= nil then
						claim(self, site)
					end
					return trade(self, player, prof, i)
				end
			end
		end
		if not sold then
			return false, "a villager of profession " .. prof.profession .. " does not trade " .. item
		end
		if refused ~= nil then
			return false, refused
		end
		return false, "the player holds no price of " .. item .. " a " .. prof.profession .. " asks"
	end

	-- the villager a player is trading with, and its offers, while the form is open
	local open = {}

	local function show(self, clicker)
		if clicker == nil or not clicker:is_player() then
			return
		end
		local prof, site = profession(self)
		local name = clicker:get_player_name()
		if prof == nil then
			minetest.chat_send_player(name, "This villager has no job site block near it.")
			return
		end
		if site ~= nil then
			claim(self, site)
		end
		local offers, at = unlocked(self, prof)
		open[name] = {villager = self, prof = prof, offers = offers, at = at}
		offer_form(name, FORM, prof.profession .. " (experience " .. experience(self, prof) .. ")", open[name].offers)
	end
	def.on_rightclick = show

	on_buttons(FORM, "offer_", open, offers_shown, function(player, shown, offer)
		for i, o in ipairs(shown.offers) do
			if o == offer then
				return trade(shown.villager, player, shown.prof, shown.at[i])
			end
		end
		return false, "the offer is no longer shown"
	end)
end
