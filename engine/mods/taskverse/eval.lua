-- The meaning of a task: taskverse.algebra.machine (Python), line for line: an automaton over events and the
-- game clock whose nodes stand "pending", "holding", "success" or "failure" (see that module's docstring).
--
-- Pure Lua (no engine calls), so tests run it under plain LuaJIT against the Python evaluator.
--
-- An event:      {event=, target=, count=, value=, day=, time=, weather=, biome=, dimension=, y=, in_cave=,
--                 held=, via=, chest=, clock=}  (nil where the Python GameEvent has None)
-- A goal:        {event=, targets={[name]=true}, count=, using={[name]=true} or nil, value= or nil,
--                 chest= or nil}
-- An expression: {op="atom", goal=GOAL} | {op="all"|"any"|"then"|"at_least", parts={...}, count=K}
--                | {op="amount", count=N, part=...} (an atom's count N times over)
--                | {op="repeat", times=N, part=EXPR} | {op="not", part=EXPR} | {op="within", ticks=T, part=EXPR}
--                | {op="constrained", part=EXPR, constraint=C} | {op="initialized", part=EXPR}
-- A constraint:  {when=, where=, where_kind="dimension"|"cave"|"height"|"biome", low=, high=, how=,
--                 how_items={[name]=true}}
--
-- M.resolve() turns an expression into machine nodes (constraints pushed down to the atoms); a state is a
-- table that is never changed in place, so a state can be kept while the next one is computed.

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
	-- a goal naming a kind of a structure's chest (a stronghold's library) counts only that kind opened
	if goal.chest ~= nil and e.chest ~= goal.chest then
		return false
	end
	for i = 1, #constraints do
		if not under(constraints[i], e) then
			return false
		end
	end
	return true
end


local PENDING, HOLDING, SUCCESS, FAILURE = "pending", "holding", "success", "failure"
local FLIP = {pending = HOLDING, holding = PENDING, success = FAILURE, failure = SUCCESS}
local TICKS_PER_SECOND = 20

local function decided(o)
	return o == SUCCESS or o == FAILURE
end

local initial, outcome

-- Machine nodes: {kind="leaf", goal=, constraints=} | {kind="group", k=, children=}
-- | {kind="then", children=, holds_after=} | {kind="repeat", times=, child=, holds0=} | {kind="not", child=}
-- | {kind="within", seconds=, child=}; every node has timed=true|false.

initial = function(node, clock)
	local kind = node.kind
	if kind == "leaf" then
		return 0
	elseif kind == "group" then
		local s = {}
		for i, c in ipairs(node.children) do
			s[i] = initial(c, clock)
		end
		return s
	elseif kind == "then" then
		return {done = 0, inner = initial(node.children[1], clock)}
	elseif kind == "repeat" then
		return {done = 0, inner = initial(node.child, clock)}
	elseif kind == "not" then
		return initial(node.child, clock)
	end
	return {start = clock, inner = initial(node.child, clock), decided = nil}
end

outcome = function(node, state)
	local kind = node.kind
	if kind == "leaf" then
		return state >= node.goal.count and SUCCESS or PENDING
	elseif kind == "group" then
		local succeeded, holding, failed = 0, 0, 0
		for i, c in ipairs(node.children) do
			local o = outcome(c, state[i])
			if o == SUCCESS then
				succeeded = succeeded + 1
			elseif o == HOLDING then
				holding = holding + 1
			elseif o == FAILURE then
				failed = failed + 1
			end
		end
		if failed > #node.children - node.k then
			return FAILURE
		end
		if succeeded + holding >= node.k then
			return succeeded > 0 and SUCCESS or HOLDING
		end
		return PENDING
	elseif kind == "then" or kind == "repeat" then
		local done = state.done
		local n, child, holds_after
		if kind == "then" then
			n = #node.children
			if done == n then
				return SUCCESS
			end
			child, holds_after = node.children[done + 1], node.holds_after[done + 1]
		else
			n = node.times
			if done == n then
				return SUCCESS
			end
			child, holds_after = node.child, node.holds0 or done == n - 1
		end
		local o = outcome(child, state.inner)
		if o == FAILURE then
			return o
		end
		return (o == HOLDING and holds_after) and HOLDING or PENDING
	elseif kind == "not" then
		return FLIP[outcome(node.child, state)]
	end
	if state.decided ~= nil then
		return state.decided
	end
	return outcome(node.child, state.inner)
end

local function gain(goal, constraints, e)
	if e.event == goal.event and goal.targets[e.target] == true and matches(goal, e, constraints) then
		return e.count
	end
	return 0
end

-- The state after one event at game time `clock` (after advance).
local function feed(node, state, e, clock)
	local kind = node.kind
	if kind == "leaf" then
		local count = node.goal.count
		if state >= count then
			return state
		end
		local gained = gain(node.goal, node.constraints, e)
		if gained == 0 then
			return state
		end
		return math.min(count, state + gained)
	elseif kind == "group" then
		if decided(outcome(node, state)) then
			return state
		end
		local s = {}
		for i, c in ipairs(node.children) do
			s[i] = feed(c, state[i], e, clock)
		end
		return s
	elseif kind == "then" or kind == "repeat" then
		local n = kind == "then" and #node.children or node.times
		local done = state.done
		if done == n then
			return state
		end
		local child = kind == "then" and node.children[done + 1] or node.child
		local inner = feed(child, state.inner, e, clock)
		if outcome(child, inner) == SUCCESS then
			done = done + 1
			if done == n then
				inner = nil
			else
				inner = initial(kind == "then" and node.children[done + 1] or child, clock)
			end
		end
		return {done = done, inner = inner}
	elseif kind == "not" then
		return feed(node.child, state, e, clock)
	end
	if state.decided ~= nil then
		return state
	end
	return {start = state.start, inner = feed(node.child, state.inner, e, clock), decided = nil}
end

-- The earliest deadline of a time bound still open in the node (nil if none).
local function next_deadline(node, state)
	if not node.timed then
		return nil
	end
	local kind = node.kind
	if kind == "group" then
		if decided(outcome(node, state)) then
			return nil
		end
		local best
		for i, c in ipairs(node.children) do
			local t = next_deadline(c, state[i])
			if t ~= nil and (best == nil or t < best) then
				best = t
			end
		end
		return best
	elseif kind == "then" or kind == "repeat" then
		local n = kind == "then" and #node.children or node.times
		if state.done == n then
			return nil
		end
		return next_deadline(kind == "then" and node.children[state.done + 1] or node.child, state.inner)
	elseif kind == "not" then
		return next_deadline(node.child, state)
	elseif kind == "within" then
		if state.decided ~= nil or decided(outcome(node.child, state.inner)) then
			return nil
		end
		local own = state.start + node.seconds
		local inside = next_deadline(node.child, state.inner)
		if inside ~= nil and inside < own then
			return inside
		end
		return own
	end
	return nil
end

-- The state once the clock passed `deadline`: time bounds ending there decide, what follows starts.
local function expire(node, state, deadline)
	if not node.timed then
		return state
	end
	local kind = node.kind
	if kind == "group" then
		if decided(outcome(node, state)) then
			return state
		end
		local s = {}
		for i, c in ipairs(node.children) do
			s[i] = expire(c, state[i], deadline)
		end
		return s
	elseif kind == "then" or kind == "repeat" then
		local n = kind == "then" and #node.children or node.times
		local done = state.done
		if done == n then
			return state
		end
		local child = kind == "then" and node.children[done + 1] or node.child
		local inner = expire(child, state.inner, deadline)
		if outcome(child, inner) == SUCCESS then
			done = done + 1
			if done == n then
				inner = nil
			else
				inner = initial(kind == "then" and node.children[done + 1] or child, deadline)
			end
		end
		return {done = done, inner = inner}
	elseif kind == "not" then
		return expire(node.child, state, deadline)
	end
	if state.decided ~= nil then
		return state
	end
	local inner = expire(node.child, state.inner, deadline)
	local o = outcome(node.child, inner)
	local verdict = nil
	if not decided(o) and state.start + node.seconds <= deadline then
		verdict = o == HOLDING and SUCCESS or FAILURE
	end
	return {start = state.start, inner = inner, decided = verdict}
end

--- The state at game time `now` and the last deadline that passed (nil if none).
local function advance(node, state, now)
	local passed
	while true do
		local deadline = next_deadline(node, state)
		if deadline == nil or deadline >= now then
			return state, passed
		end
		state = expire(node, state, deadline)
		passed = deadline
	end
end

local progress
progress = function(node, state)
	local o = outcome(node, state)
	if o == SUCCESS then
		return 1.0
	elseif o == FAILURE then
		return 0.0
	end
	local kind = node.kind
	if kind == "leaf" then
		return math.min(1.0, state / node.goal.count)
	elseif kind == "group" then
		local values = {}
		for i, c in ipairs(node.children) do
			values[i] = progress(c, state[i])
		end
		table.sort(values, function(a, b) return a > b end)
		local sum = 0
		for i = 1, node.k do
			sum = sum + values[i]
		end
		return sum / node.k
	elseif kind == "then" or kind == "repeat" then
		local n = kind == "then" and #node.children or node.times
		local child = kind == "then" and node.children[state.done + 1] or node.child
		return (state.done + progress(child, state.inner)) / n
	elseif kind == "not" then
		return 1.0 - progress(node.child, state)
	end
	return progress(node.child, state.inner)
end

M.initial, M.outcome, M.feed, M.advance, M.progress, M.decided = initial, outcome, feed, advance, progress, decided

local function set_of(list)
	local out = {}
	for _, name in ipairs(list or {}) do
		out[name] = true
	end
	return out
end
M.set_of = set_of

local function any_timed(children)
	for _, c in ipairs(children) do
		if c.timed then
			return true
		end
	end
	return false
end

--- Turn a compiled task's expression (atoms by id, lists of names) into machine nodes: each atom carries its
-- goal and the constraints around it, name lists become sets.
function M.resolve(node, goals, constraints)
	constraints = constraints or {}
	local op = node.op
	if op == "atom" then
		local goal = goals[node.atom]
		if goal == nil then
			error("taskverse: no goal for atom " .. tostring(node.atom))
		end
		return {kind = "leaf", timed = false, atom = node.atom, constraints = constraints, goal = {
			event = goal.event, targets = set_of(goal.targets), count = goal.count,
			using = goal.using and set_of(goal.using) or nil, value = goal.value, chest = goal.chest,
		}}
	elseif op == "all" or op == "any" or op == "at_least" or op == "then" then
		local children = {}
		for i, part in ipairs(node.parts) do
			children[i] = M.resolve(part, goals, constraints)
		end
		if op == "then" then
			local holds_after = {}
			for i = 1, #children do
				local holds = true
				for j = i + 1, #children do
					if outcome(children[j], initial(children[j], 0)) ~= HOLDING then
						holds = false
					end
				end
				holds_after[i] = holds
			end
			return {kind = "then", timed = any_timed(children), children = children, holds_after = holds_after}
		end
		local k = op == "all" and #children or op == "any" and 1 or node.count
		return {kind = "group", timed = any_timed(children), k = k, children = children}
	elseif op == "repeat" then
		local child = M.resolve(node.part, goals, constraints)
		return {kind = "repeat", timed = child.timed, times = node.times, child = child,
			holds0 = outcome(child, initial(child, 0)) == HOLDING}
	elseif op == "not" then
		local child = M.resolve(node.part, goals, constraints)
		return {kind = "not", timed = child.timed, child = child}
	elseif op == "within" then
		return {kind = "within", timed = true, seconds = node.ticks / TICKS_PER_SECOND,
			child = M.resolve(node.part, goals, constraints)}
	elseif op == "constrained" then
		local c = {}
		for key, value in pairs(node.constraint) do
			c[key] = value
		end
		c.how_items = set_of(node.constraint.how_items)
		local inner = {}
		for i = 1, #constraints do
			inner[i] = constraints[i]
		end
		inner[#inner + 1] = c
		return M.resolve(node.part, goals, inner)
	elseif op == "initialized" then
		return M.resolve(node.part, goals, constraints)
	elseif op == "amount" then
		-- the atom's count, node.count times over: its events add up their counts
		local leaf = M.resolve(node.part, goals, constraints)
		if leaf.kind ~= "leaf" then
			error("taskverse: amount of something other than an atom")
		end
		leaf.goal.count = leaf.goal.count * node.count
		return leaf
	end
	error("taskverse: not a task expression: " .. tostring(op))
end

--- A verdict {outcome=, progress=, at= (index of the deciding event or nil), clock= (game time of the decision)}.
local function verdict(node, state, at, clock)
	local o = outcome(node, state)
	if decided(o) then
		return {outcome = o, progress = progress(node, state), at = at, clock = clock}
	end
	return {outcome = o, progress = progress(node, state)}
end
M.verdict = verdict

--- Evaluate machine nodes over a list of events, read at game time `now` (default: the last event's clock).
function M.evaluate(node, events, now)
	local state = initial(node, 0)
	for i, e in ipairs(events) do
		if node.timed then
			local passed
			state, passed = advance(node, state, e.clock or 0)
			if decided(outcome(node, state)) then
				return verdict(node, state, nil, passed)
			end
		end
		state = feed(node, state, e, e.clock or 0)
		if decided(outcome(node, state)) then
			return verdict(node, state, i, e.clock or 0)
		end
	end
	if node.timed and (now ~= nil or #events > 0) then
		local passed
		state, passed = advance(node, state, now or events[#events].clock or 0)
		return verdict(node, state, nil, passed)
	end
	return verdict(node, state, nil, nil)
end

--- The (event, target) pairs that can change the verdict: {[event] = {[target] = true}}.
function M.relevant(node, out)
	out = out or {}
	if node.kind == "leaf" then
		local goal = node.goal
		out[goal.event] = out[goal.event] or {}
		for target in pairs(goal.targets) do
			out[goal.event][target] = true
		end
	elseif node.children ~= nil then
		for _, child in ipairs(node.children) do
			M.relevant(child, out)
		end
	else
		M.relevant(node.child, out)
	end
	return out
end

return M
