-- A stand-in for the parts of Wireshark's Lua API the dissector uses, to run
-- it under a plain Lua interpreter. Usage:
--   lua wireshark_stub.lua rtype.lua c:HEX s:HEX ...
-- where c: is a datagram from the client to the server and s: the reverse.
-- Prints, for each datagram, "frame N" then one "field=value" line per field
-- the dissector added.

bit32 = nil -- Lua 5.4 has none; Wireshark provides BitOp as bit
bit = { band = function(a, b) return a & b end }

local any = setmetatable({}, { __index = function() return 0 end })
base = { HEX = 1, DEC = 2 }
expert = { group = any, severity = any }
ProtoExpert = { new = function() return {} end }
Pref = { uint = function(_, default) return default end }
DissectorTable = { get = function() return { add = function() end, remove = function() end } end }
ProtoField = setmetatable({}, {
    __index = function() return function(abbr) return { abbr = abbr } end end,
})
Field = { new = function() return function() return nil end end }
function register_postdissector() end
local protos = {}
function Proto(name)
    protos[name] = { name = name, prefs = {} }
    return protos[name]
end

local Range = {}
Range.__index = Range
local function range(data, off, len)
    return setmetatable({ data = data, off = off, n = len }, Range)
end
Range.__call = function(r, off, len)
    off = off or 0
    len = len or (r.n - off)
    if off < 0 or len < 0 or off + len > r.n then error("range out of bounds") end
    return range(r.data, r.off + off, len)
end
function Range:len() return self.n end
-- The stand-in's datagrams are whole: captured as they were sent.
function Range:reported_len() return self.n end
function Range:uint()
    if self.n < 1 or self.n > 4 then error("uint on " .. self.n .. " bytes") end
    local v = 0
    for i = 1, self.n do v = v * 256 + self.data:byte(self.off + i) end
    return v
end

local Item = {}
Item.__index = Item
local function item() return setmetatable({}, Item) end
function Item:add(field, r, value)
    if type(field) == "table" and field.abbr then
        if value == nil and type(r) ~= "table" then value = r end
        if value == nil and r.n >= 1 and r.n <= 4 then value = r:uint() end
        if value ~= nil then print(field.abbr .. "=" .. tostring(value)) end
    end
    return item()
end
function Item:append_text() return self end
function Item:set_generated() return self end
function Item:add_proto_expert_info() return self end

local file = arg[1]
dofile(file)
-- The first pass dissects the frames in order; then, as Wireshark does when
-- a frame is clicked, each is dissected again, last first, marked visited.
local frames = {}
for i = 2, #arg do
    local dir, hex = arg[i]:match("^([cs]):(%x*)$")
    if not dir then error("bad argument " .. arg[i]) end
    local data = hex:gsub("%x%x", function(h) return string.char(tonumber(h, 16)) end)
    local client, server = "10.0.0.2", "10.0.0.1"
    local pinfo = { cols = {}, number = i - 1, visited = false, src = client, src_port = 50000, dst = server, dst_port = 4242 }
    if dir == "s" then
        pinfo.src, pinfo.src_port, pinfo.dst, pinfo.dst_port = server, 4242, client, 50000
    end
    frames[#frames + 1] = { pinfo = pinfo, data = data }
    print("frame " .. (i - 1))
    protos.rtype.dissector(range(data, 0, #data), pinfo, item())
end
for i = #frames, 1, -1 do
    local fr = frames[i]
    fr.pinfo.visited = true
    print("revisit " .. fr.pinfo.number)
    protos.rtype.dissector(range(fr.data, 0, #fr.data), fr.pinfo, item())
end
