-- The meaning of a task: taskverse.algebra.semantics.Evaluator (Python), line for line, over the events seen so far.
--
-- Pure Lua (no engine calls), so tests run it under plain LuaJIT against the Python evaluator.
--
-- An event:      {event=, target=, count=, value=, day=, time=, weather=, biome=, dimension=, y=, in_cave=,
--                 held=, via=}  (nil where the Python GameEvent has None)
-- A goal:        {event=, targets={[name]=true}, count=, using={[name]=true} or nil, value= or nil}
-- An expression: {op="atom", goal=GOAL} | {op="all"|"any"|"then", parts={...}}
--                | {op="constrained", part=EXPR, constraint=C} | {op="initialized", part=EXPR}
-- A constraint:  {when=, where=, where_kind="dimension"|"cave"|"height"|"biome", low=, high=, how=,
--                 how_items={[name]=true}}
--
-- sat() returns the index of the event that completed the expression (nil if none) and the progress in [0, 1].

local M = {}

local function under(c, e)
	local when = c.when
	if when ~= nil then
		if when == "first_day" then
			if e.day ~= 0 then
				return false
			end
		elseif when == "day" or when == "night" then
			if e.time ~= when then
				return false
			end
		elseif e.weather ~= when then
			return false
		end
	end
	local kind = c.where_kind
	if kind ~= nil then
		local ok
		if kind == "dimension" then
			ok = e.dimension == c.where
		elseif kind == "cave" then
			ok = e.in_cave == true
		elseif kind == "height" then
			ok = e.y ~= nil and (c.low == nil or e.y >= c.low) and (c.high == nil or e.y <= c.high)
		else
			ok = e.biome == c.where
		end
		if not ok then
			return false
		end
	end
	local how = c.how
	if how ~= nil then
		if how == "bare_hand" then
			return e.held == nil
		elseif how == "arrows" then
			return e.via == "arrow"
		end
		return e.held ~= nil and c.how_items[e.held] == true
	end
	return true
end

local function matches(goal, e, constraints)
	if goal.using ~= nil and (e.held == nil or goal.using[e.held] ~= true) then
		return false
	end
	if goal.value ~= nil and (e.value == nil or e.value < goal.value) then
		return false
	end
	for i = 1, #constraints do
		if not under(constraints[i], e) then
			return false
		end
	end
	return true
end

local sat

local function sat_atom(goal, events, start, constraints)
	local total = 0
	for i = start, #events do
		local e = events[i]
		if e.event == goal.event and goal.targets[e.target] == true and matches(goal, e, constraints) then
			total = total + e.count
			if total >= goal.count then
				return i, 1.0
			end
		end
	end
	return nil, math.min(1.0, total / goal.count)
end

sat = function(node, events, start, constraints)
	local op = node.op
	if op == "atom" then
		return sat_atom(node.goal, events, start, constraints)
	elseif op == "all" then
		local latest, sum, done = 0, 0, true
		for _, part in ipairs(node.parts) do
			local at, progress = sat(part, events, start, constraints)
			if at == nil then
				done = false
			elseif at > latest then
				latest = at
			end
			sum = sum + progress
		end
		if done then
			return latest, 1.0
		end
		return nil, sum / #node.parts
	elseif op == "any" then
		local earliest, best = nil, 0
		for _, part in ipairs(node.parts) do
			local at, progress = sat(part, events, start, constraints)
			if at ~= nil and (earliest == nil or at < earliest) then
				earliest = at
			end
			if progress > best then
				best = progress
			end
		end
		if earliest ~= nil then
			return earliest, 1.0
		end
		return nil, best
	elseif op == "then" then
		local cursor = start
		local n = #node.parts
		for k, part in ipairs(node.parts) do
			local at, progress = sat(part, events, cursor, constraints)
			if at == nil then
				return nil, (k - 1 + progress) / n
			end
			cursor = at + 1
		end
		return cursor - 1, 1.0
	elseif op == "constrained" then
		local inner = {}
		for i = 1, #constraints do
			inner[i] = constraints[i]
		end
		inner[#inner + 1] = node.constraint
		return sat(node.part, events, start, inner)
	elseif op == "initialized" then
		return sat(node.part, events, start, constraints)
	end
	error("taskverse: not a task expression: " .. tostring(op))
end

local function set_of(list)
	local out = {}
	for _, name in ipairs(list or {}) do
		out[name] = true
	end
	return out
end
M.set_of = set_of

--- Turn a compiled task's expression (atoms by id, lists of names) into the shape sat() reads: each atom
-- reference carries its goal, name lists become sets.
function M.resolve(node, goals)
	if node.op == "atom" then
		local goal = goals[node.atom]
		if goal == nil then
			error("taskverse: no goal for atom " .. tostring(node.atom))
		end
		return {op = "atom", atom = node.atom, goal = {
			event = goal.event, targets = set_of(goal.targets), count = goal.count,
			using = goal.using and set_of(goal.using) or nil, value = goal.value,
		}}
	elseif node.parts ~= nil then
		local parts = {}
		for i, part in ipairs(node.parts) do
			parts[i] = M.resolve(part, goals)
		end
		return {op = node.op, parts = parts}
	elseif node.op == "constrained" then
		local c = {}
		for key, value in pairs(node.constraint) do
			c[key] = value
		end
		c.how_items = set_of(node.constraint.how_items)
		return {op = "constrained", part = M.resolve(node.part, goals), constraint = c}
	end
	return {op = node.op, part = M.resolve(node.part, goals)}
end

--- Evaluate an expression over a list of events: (index of the completing event or nil, progress).
function M.evaluate(expr, events)
	return sat(expr, events, 1, {})
end

--- The (event, target) pairs that can change the verdict: {[event] = {[target] = true}}.
function M.relevant(expr, out)
	out = out or {}
	if expr.op == "atom" then
		local goal = expr.goal
		out[goal.event] = out[goal.event] or {}
		for target in pairs(goal.targets) do
			out[goal.event][target] = true
		end
	elseif expr.parts ~= nil then
		for _, part in ipairs(expr.parts) do
			M.relevant(part, out)
		end
	else
		M.relevant(expr.part, out)
	end
	return out
end

return M
