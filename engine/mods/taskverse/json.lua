-- A small JSON encoder: keys sorted, integers written as integers, so Python reads back exactly what was meant
-- (minetest.write_json writes every number as a float and empty tables as null). Pure Lua.

local M = {}

local escapes = {['"'] = '\\"', ["\\"] = "\\\\", ["\n"] = "\\n", ["\r"] = "\\r", ["\t"] = "\\t"}

local function quote(s)
	return '"' .. s:gsub('[%c"\\]', function(c)
		return escapes[c] or string.format("\\u%04x", c:byte())
	end) .. '"'
end

local function number(x)
	if x ~= x or x == math.huge or x == -math.huge then
		return "null"
	end
	if x == math.floor(x) and math.abs(x) < 2 ^ 53 then
		return string.format("%d", x)
	end
	return string.format("%.17g", x)
end

local encode

-- A table is an array when its keys are exactly 1..n (an empty table is an object, {}).
local function is_array(t)
	local n = 0
	for _ in pairs(t) do
		n = n + 1
	end
	return n > 0 and #t == n
end

encode = function(value, out)
	local kind = type(value)
	if kind == "nil" then
		out[#out + 1] = "null"
	elseif kind == "boolean" then
		out[#out + 1] = value and "true" or "false"
	elseif kind == "number" then
		out[#out + 1] = number(value)
	elseif kind == "string" then
		out[#out + 1] = quote(value)
	elseif kind == "table" then
		if is_array(value) then
			out[#out + 1] = "["
			for i, item in ipairs(value) do
				if i > 1 then
					out[#out + 1] = ","
				end
				encode(item, out)
			end
			out[#out + 1] = "]"
		else
			local keys = {}
			for key in pairs(value) do
				keys[#keys + 1] = tostring(key)
			end
			table.sort(keys)
			out[#out + 1] = "{"
			for i, key in ipairs(keys) do
				if i > 1 then
					out[#out + 1] = ","
				end
				out[#out + 1] = quote(key)
				out[#out + 1] = ":"
				local item = value[key]
				if item == nil then
					item = value[tonumber(key)]
				end
				encode(item, out)
			end
			out[#out + 1] = "}"
		end
	else
		error("taskverse.json: cannot encode a " .. kind)
	end
end

--- Encode a value as one line of JSON.
function M.encode(value)
	local out = {}
	encode(value, out)
	return table.concat(out)
end

return M
