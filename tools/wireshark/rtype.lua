-- Wireshark dissector for the R-Type network protocol, version 1.
--
-- Install: copy this file into Wireshark's personal Lua plugins folder
-- (Help > About Wireshark > Folders), or load it for one run:
--   tshark -X lua_script:tools/wireshark/rtype.lua -r capture.pcap
--
-- It decodes UDP traffic to and from the server port (preference
-- rtype.port, default 4242). Which parser a datagram goes through follows
-- §3 of the specification, per client address (see conns below):
-- handshake datagrams (§4) until a valid Welcome went to that address;
-- then connected packets (§5), but for valid handshake datagrams until the
-- client sent a packet the server kept; handshake datagrams again after a
-- Disconnect the server kept (§7.3), but for the server's packets until a
-- new Welcome, dropped by the client, gone. A packet whose connectionId is none of
-- the ids welcomed (before the client's first kept packet) or not the one
-- that packet took (after it) is dropped by either end (§5.4), and so is a
-- duplicate or too old sequence in its direction (§5.2). Every field of every
-- message has a display filter, for example
-- rtype.msg.type == 0x0083, rtype.snapshot.count > 40 or
-- rtype.header.sequence == 5. A datagram or message that a receiver must
-- drop is marked with an expert-info error and rtype.valid == 0 (or
-- rtype.msg.valid == 0).
--
-- Written for Wireshark 4.0 (Lua 5.2) and later (Lua 5.4): no native bit
-- operators, which Lua 5.2 cannot parse, and bit32, absent from Lua 5.4, only
-- where it exists; otherwise the BitOp library every Wireshark ships as bit.

local rtype = Proto("rtype", "R-Type Protocol v1")

local band = (bit32 and bit32.band) or bit.band

local MAX_DATAGRAM = 548 -- §2.2
local MAGIC = 0x52545950 -- "RTYP", §4.1
local VERSION = 1
local HANDSHAKE_HEADER = 6
local PACKET_HEADER = 16
local MESSAGE_HEADER = 4
local MAX_STATES = 47 -- §8.1

local handshake_types = { [1] = "Hello", [2] = "Welcome", [3] = "Rejected" }
local handshake_sizes = { [1] = 6, [2] = 10, [3] = 6 }

local message_types = {
    [0x0002] = "Input",
    [0x0003] = "Ping",
    [0x0004] = "Disconnect",
    [0x0013] = "QueryEntity",
    [0x0083] = "Snapshot",
    [0x0084] = "CreateEntity",
    [0x0085] = "DestroyEntity",
    [0x0086] = "Pong",
}

local disconnect_reasons = {
    [1] = "Client quit", [2] = "Timeout", [3] = "Protocol error", [4] = "Server shutdown",
}

local destroy_reasons = {
    [0] = "Unknown", [1] = "Removed by gameplay", [2] = "Out of bounds",
    [3] = "Player disconnected", [4] = "Game ended",
}

-- §9.3: blueprints the version 1 server uses.
local archetypes = {
    [0xBD3E] = "player_blue", [0x54EE] = "player_green", [0x8F7A] = "player_pink",
    [0xFAD4] = "player_red", [0x4BED] = "bullet", [0x87FF] = "enemyBidos",
    [0x7EAF] = "low_ground", [0xA6A3] = "medium_ground", [0x189D] = "high_ground",
    [0xBE70] = "ramp", [0x6C78] = "reactor", [0xFD72] = "gate",
}

local f = {
    kind = ProtoField.string("rtype.kind", "Kind"),
    valid = ProtoField.bool("rtype.valid", "Valid"),
    error = ProtoField.string("rtype.error", "Error"),

    hs_magic = ProtoField.uint32("rtype.handshake.magic", "magic", base.HEX),
    hs_version = ProtoField.uint8("rtype.handshake.version", "version"),
    hs_type = ProtoField.uint8("rtype.handshake.type", "type", base.DEC, handshake_types),
    hs_connection_id = ProtoField.uint32("rtype.handshake.connection_id", "connectionId"),

    connection_id = ProtoField.uint32("rtype.header.connection_id", "connectionId"),
    sequence = ProtoField.uint32("rtype.header.sequence", "sequence"),
    ack = ProtoField.uint32("rtype.header.ack", "ack"),
    ack_bits = ProtoField.uint32("rtype.header.ack_bits", "ackBits", base.HEX),

    msg_type = ProtoField.uint16("rtype.msg.type", "type", base.HEX, message_types),
    msg_size = ProtoField.uint16("rtype.msg.size", "size"),
    msg_valid = ProtoField.bool("rtype.msg.valid", "Valid"),
    msg_error = ProtoField.string("rtype.msg.error", "Error"),
    msg_payload = ProtoField.bytes("rtype.msg.payload", "payload"),
    trailing = ProtoField.bytes("rtype.trailing", "Bytes after the last complete message"),

    input_sequence = ProtoField.uint32("rtype.input.input_sequence", "inputSequence"),
    client_tick = ProtoField.uint32("rtype.input.client_tick", "clientTick"),
    actions = ProtoField.uint8("rtype.input.actions", "actions", base.HEX),
    act_up = ProtoField.bool("rtype.input.actions.up", "Up", 8, nil, 0x01),
    act_down = ProtoField.bool("rtype.input.actions.down", "Down", 8, nil, 0x02),
    act_left = ProtoField.bool("rtype.input.actions.left", "Left", 8, nil, 0x04),
    act_right = ProtoField.bool("rtype.input.actions.right", "Right", 8, nil, 0x08),
    act_shoot = ProtoField.bool("rtype.input.actions.shoot", "Shoot", 8, nil, 0x10),
    act_reserved = ProtoField.uint8("rtype.input.actions.reserved", "Reserved", base.HEX, nil, 0xE0),

    ping_timestamp = ProtoField.uint32("rtype.ping.timestamp", "timestamp"),
    disconnect_reason = ProtoField.uint8("rtype.disconnect.reason", "reason", base.DEC, disconnect_reasons),
    query_network_id = ProtoField.uint32("rtype.query_entity.network_id", "networkId"),

    snap_server_tick = ProtoField.uint32("rtype.snapshot.server_tick", "serverTick"),
    snap_count = ProtoField.uint16("rtype.snapshot.count", "entityCount"),
    snap_network_id = ProtoField.uint32("rtype.snapshot.network_id", "networkId"),
    snap_entity_type = ProtoField.uint8("rtype.snapshot.entity_type", "entityType", base.HEX),
    snap_x = ProtoField.double("rtype.snapshot.position_x", "positionX (pixels)"),
    snap_y = ProtoField.double("rtype.snapshot.position_y", "positionY (pixels)"),
    snap_rotation = ProtoField.double("rtype.snapshot.rotation", "rotation (radians)"),

    create_server_tick = ProtoField.uint32("rtype.create_entity.server_tick", "serverTick"),
    create_network_id = ProtoField.uint32("rtype.create_entity.network_id", "networkId"),
    create_entity_type = ProtoField.uint16("rtype.create_entity.entity_type", "entityType", base.HEX, archetypes),
    create_x = ProtoField.double("rtype.create_entity.position_x", "positionX (pixels)"),
    create_y = ProtoField.double("rtype.create_entity.position_y", "positionY (pixels)"),
    create_rotation = ProtoField.double("rtype.create_entity.rotation", "rotation (radians)"),

    destroy_server_tick = ProtoField.uint32("rtype.destroy_entity.server_tick", "serverTick"),
    destroy_network_id = ProtoField.uint32("rtype.destroy_entity.network_id", "networkId"),
    destroy_reason = ProtoField.uint8("rtype.destroy_entity.reason", "reason", base.DEC, destroy_reasons),

    pong_timestamp = ProtoField.uint32("rtype.pong.timestamp", "timestamp"),
}
local field_list = {}
for _, v in pairs(f) do field_list[#field_list + 1] = v end
rtype.fields = field_list

local ef = {
    malformed = ProtoExpert.new("rtype.malformed", "Malformed datagram: a receiver drops it",
        expert.group.MALFORMED, expert.severity.ERROR),
    bad_message = ProtoExpert.new("rtype.bad_message", "Malformed message: a receiver drops it",
        expert.group.MALFORMED, expert.severity.ERROR),
    unknown_type = ProtoExpert.new("rtype.unknown_type", "Unknown message type: a receiver ignores it (§6)",
        expert.group.UNDECODED, expert.severity.NOTE),
    wrong_connection = ProtoExpert.new("rtype.wrong_connection",
        "Connection id differs from the Welcome's: a receiver drops the packet (§5.4)",
        expert.group.PROTOCOL, expert.severity.ERROR),
    sequence = ProtoExpert.new("rtype.sequence",
        "Duplicate or too old sequence: the receiver drops the packet (§5.2)",
        expert.group.SEQUENCE, expert.severity.ERROR),
    after_disconnect = ProtoExpert.new("rtype.after_disconnect",
        "Packet after the client's Disconnect: the client has left (§7.3)",
        expert.group.SEQUENCE, expert.severity.ERROR),
}
rtype.experts = { ef.malformed, ef.bad_message, ef.unknown_type, ef.wrong_connection, ef.sequence, ef.after_disconnect }

rtype.prefs.port = Pref.uint("UDP port", 4242, "UDP port of the R-Type server")
rtype.prefs.max_clients = Pref.uint("Client addresses remembered", 65536,
    "Past them, the address least recently welcomed or heard from is forgotten, a connected one last")

-- conns maps a client address ("ip:port") to the state of its connection
-- (§3), as the first pass reaches each frame in order:
--   handshake --Welcome to the client--> welcomed(ids)
--   welcomed  --Welcome to the client--> welcomed(ids + new id)
--   welcomed  --accepted client packet--> connected(its id)
--   connected --accepted client Disconnect--> closed
--   closed    --Welcome to the client--> welcomed(id)
-- Handshake (no entry) and closed read handshake datagrams, but closed
-- reads what is not one from the server as a packet it sent before it read
-- the Disconnect, which the client, gone, drops (§7.3); welcomed reads a valid handshake datagram as one (a repeated
-- Hello, the Welcome again, §4.2, §13) and anything else as a packet of one
-- of the ids welcomed; connected reads packets of the id the client took
-- only, told by its first packet the server accepts. An entry holds phase,
-- id (the last Welcome's, then the connection's), offers (while welcomed,
-- the last MAX_OFFERS ids welcomed and the client's window of each), and
-- win, the §5.2 window of each direction (win[true] the server's).
-- At most rtype.prefs.max_clients entries are kept, so that memory stays
-- bounded: lists.held links the connected ones, lists.fresh the others,
-- each least recently welcomed or heard from first (fields list, prev,
-- next, addr of an entry); a new address forgets the front of fresh, or
-- of held when fresh is empty, as rtypedump does.
local conns = {}
local lists
-- verdicts maps a frame number to what the first pass found of it: kind,
-- id (the Welcome's, for §5.4), seq_err (§5.2). Wireshark dissects frames
-- again later, out of order (pinfo.visited true); they read it here.
local verdicts = {}

local function reset()
    conns = {}
    lists = { fresh = { n = 0 }, held = { n = 0 } }
    verdicts = {}
end
reset()
rtype.init = reset

-- unlink takes the entry c out of its list, if any.
local function unlink(c)
    local l = c.list
    if l == nil then return end
    if c.prev then c.prev.next = c.next else l.front = c.next end
    if c.next then c.next.prev = c.prev else l.back = c.prev end
    c.prev, c.next, c.list = nil, nil, nil
    l.n = l.n - 1
end

-- place moves the entry c to the back of the list of its phase.
local function place(c)
    unlink(c)
    local l = c.phase == "connected" and lists.held or lists.fresh
    c.prev, c.list = l.back, l
    if l.back then l.back.next = c else l.front = c end
    l.back = c
    l.n = l.n + 1
end

-- remember returns a new entry for the address client, forgetting the
-- least recently used one, not connected first, when the table is full.
local function remember(client)
    if lists.fresh.n + lists.held.n >= math.max(rtype.prefs.max_clients, 1) then
        local old = lists.fresh.front or lists.held.front
        unlink(old)
        conns[old.addr] = nil
    end
    local c = { addr = client }
    conns[client] = c
    return c
end

-- §9.1 and §9.2.
local function pixels(code) return code / 4 - 8192 end
local function radians(code) return code / 65536 * 2 * math.pi end

-- add_decoded adds a pos16 or rot16 field with its decoded value and the
-- code as sent.
local function add_decoded(tree, field, range, value)
    tree:add(field, range, value):append_text(string.format(" (0x%04x)", range:uint()))
end

-- Message decoders: each checks the rules of its section and returns an
-- error text, or nil when a receiver keeps the message.
local decoders = {}

decoders[0x0002] = function(buf, tree) -- Input, §7.1
    if buf:len() ~= 9 then return "Input payload must be 9 bytes" end
    tree:add(f.input_sequence, buf(0, 4))
    tree:add(f.client_tick, buf(4, 4))
    local a = tree:add(f.actions, buf(8, 1))
    a:add(f.act_up, buf(8, 1))
    a:add(f.act_down, buf(8, 1))
    a:add(f.act_left, buf(8, 1))
    a:add(f.act_right, buf(8, 1))
    a:add(f.act_shoot, buf(8, 1))
    a:add(f.act_reserved, buf(8, 1))
    if band(buf(8, 1):uint(), 0xE0) ~= 0 then return "reserved action bits 5 to 7 must be 0" end
end

decoders[0x0003] = function(buf, tree) -- Ping, §7.2
    if buf:len() ~= 4 then return "Ping payload must be 4 bytes" end
    tree:add(f.ping_timestamp, buf(0, 4))
end

decoders[0x0004] = function(buf, tree) -- Disconnect, §7.3: any reason is accepted
    if buf:len() ~= 1 then return "Disconnect payload must be 1 byte" end
    tree:add(f.disconnect_reason, buf(0, 1))
end

decoders[0x0013] = function(buf, tree) -- QueryEntity, §7.4
    if buf:len() ~= 4 then return "QueryEntity payload must be 4 bytes" end
    tree:add(f.query_network_id, buf(0, 4))
    if buf(0, 4):uint() == 0 then return "networkId must not be 0" end
end

decoders[0x0083] = function(buf, tree) -- Snapshot, §8.1
    if buf:len() < 6 then return "Snapshot payload shorter than 6 bytes" end
    tree:add(f.snap_server_tick, buf(0, 4))
    tree:add(f.snap_count, buf(4, 2))
    local n = buf(4, 2):uint()
    if n > MAX_STATES then return "entityCount greater than 47" end
    if buf:len() ~= 6 + 11 * n then return "payload size is not 6 + 11 x entityCount" end
    local seen, err = {}, nil
    for i = 0, n - 1 do
        local o = 6 + 11 * i
        local id = buf(o, 4):uint()
        local s = tree:add(rtype, buf(o, 11), string.format("Entity state %d: networkId %d", i + 1, id))
        s:add(f.snap_network_id, buf(o, 4))
        s:add(f.snap_entity_type, buf(o + 4, 1))
        add_decoded(s, f.snap_x, buf(o + 5, 2), pixels(buf(o + 5, 2):uint()))
        add_decoded(s, f.snap_y, buf(o + 7, 2), pixels(buf(o + 7, 2):uint()))
        add_decoded(s, f.snap_rotation, buf(o + 9, 2), radians(buf(o + 9, 2):uint()))
        if err == nil then
            if id == 0 then
                err = "networkId must not be 0"
            elseif seen[id] then
                err = string.format("networkId %d appears twice", id)
            end
        end
        seen[id] = true
    end
    return err
end

decoders[0x0084] = function(buf, tree) -- CreateEntity, §8.2
    if buf:len() ~= 16 then return "CreateEntity payload must be 16 bytes" end
    tree:add(f.create_server_tick, buf(0, 4))
    tree:add(f.create_network_id, buf(4, 4))
    tree:add(f.create_entity_type, buf(8, 2))
    add_decoded(tree, f.create_x, buf(10, 2), pixels(buf(10, 2):uint()))
    add_decoded(tree, f.create_y, buf(12, 2), pixels(buf(12, 2):uint()))
    add_decoded(tree, f.create_rotation, buf(14, 2), radians(buf(14, 2):uint()))
    if buf(4, 4):uint() == 0 then return "networkId must not be 0" end
end

decoders[0x0085] = function(buf, tree) -- DestroyEntity, §8.3
    if buf:len() ~= 9 then return "DestroyEntity payload must be 9 bytes" end
    tree:add(f.destroy_server_tick, buf(0, 4))
    tree:add(f.destroy_network_id, buf(4, 4))
    tree:add(f.destroy_reason, buf(8, 1))
    if buf(4, 4):uint() == 0 then return "networkId must not be 0" end
    if buf(8, 1):uint() > 4 then return "reason greater than 4" end
end

decoders[0x0086] = function(buf, tree) -- Pong, §8.4
    if buf:len() ~= 4 then return "Pong payload must be 4 bytes" end
    tree:add(f.pong_timestamp, buf(0, 4))
end

-- handshake_error checks a handshake datagram (§4) of len bytes and
-- returns its type and an error, nil when it is valid.
local function handshake_error(buf, len)
    local t = len >= 6 and buf(5, 1):uint() or nil
    if len > MAX_DATAGRAM then
        return t, "datagram larger than 548 bytes (§2.2)"
    elseif len < HANDSHAKE_HEADER then
        return t, "handshake datagram shorter than 6 bytes (§4.1)"
    elseif buf(0, 4):uint() ~= MAGIC then
        return t, "bad magic (§4.1)"
    elseif buf(4, 1):uint() ~= VERSION then
        return t, "unsupported version (§4.1)"
    elseif handshake_types[t] == nil then
        return t, "invalid handshake type (§4.1)"
    elseif len ~= handshake_sizes[t] then
        return t, string.format("%s must be exactly %d bytes (§4)", handshake_types[t], handshake_sizes[t])
    elseif t == 2 and buf(6, 4):uint() == 0 then
        return t, "Welcome with connectionId 0 (§4.3)"
    end
    return t, nil
end

-- welcome_id returns the connection id of a valid Welcome, nil for any
-- other datagram.
local function welcome_id(buf, len)
    local t, err = handshake_error(buf, len)
    if err == nil and t == 2 then return buf(6, 4):uint() end
end

-- dissect_handshake decodes a handshake datagram (§4) and returns an error
-- and an Info summary.
local function dissect_handshake(buf, tree)
    local len = buf:len()
    if len >= 4 then tree:add(f.hs_magic, buf(0, 4)) end
    if len >= 5 then tree:add(f.hs_version, buf(4, 1)) end
    if len >= 6 then tree:add(f.hs_type, buf(5, 1)) end
    local t, err = handshake_error(buf, len)
    if t == 2 and (err == nil or err == "Welcome with connectionId 0 (§4.3)") then
        tree:add(f.hs_connection_id, buf(6, 4))
    end
    if err then return err, "Malformed handshake" end
    local info = handshake_types[t]
    if t == 2 then info = info .. " connectionId=" .. buf(6, 4):uint() end
    return nil, info
end

-- is_hello tells whether the len bytes of buf are a valid Hello (§4.2).
local function is_hello(buf, len)
    return len == HANDSHAKE_HEADER and buf(0, 4):uint() == MAGIC and buf(4, 1):uint() == VERSION
        and buf(5, 1):uint() == 1
end

-- packet_error checks what a receiver checks of a connected packet of len
-- bytes on its own (§2.2, §5.3, §5.4) and returns an error, nil when it
-- passes, and for a framing error the offset where the framing breaks.
local function packet_error(buf, len)
    if len > MAX_DATAGRAM then return "datagram larger than 548 bytes (§2.2)" end
    if len < PACKET_HEADER then return "packet shorter than 16 bytes (§5.4)" end
    if buf(0, 4):uint() == 0 then return "connectionId 0 (§4.3, §5.4)" end
    -- §5.3: the whole packet is dropped if the framing breaks anywhere.
    local off = PACKET_HEADER
    while off < len do
        if len - off < MESSAGE_HEADER then
            return string.format("truncated message header at byte %d (§5.3)", off), off
        end
        local size = buf(off + 2, 2):uint()
        if off + MESSAGE_HEADER + size > len then
            return string.format("message size %d exceeds the bytes left at byte %d (§5.3)", size, off), off
        end
        off = off + MESSAGE_HEADER + size
    end
end

-- has_disconnect tells whether a well-framed packet of len bytes carries
-- a valid Disconnect (§7.3).
local function has_disconnect(buf, len)
    local off = PACKET_HEADER
    while off < len do
        local t, size = buf(off, 2):uint(), buf(off + 2, 2):uint()
        if t == 0x0004 and size == 1 then return true end
        off = off + MESSAGE_HEADER + size
    end
    return false
end

-- dissect_packet decodes a connected packet (§5): the header, then the
-- messages when the framing of §5.3 holds, the connection id is the one
-- the Welcome to the client gave, v.id (§5.4), and the sequence is not one
-- the receiver drops, v.seq_err (§5.2). It returns an error, an Info
-- summary, and the expert info for the error when it is not a malformed
-- datagram.
local function dissect_packet(buf, tree, v, to_server)
    local len = buf:len()
    if len >= PACKET_HEADER then
        local h = tree:add(rtype, buf(0, PACKET_HEADER), "Packet header")
        h:add(f.connection_id, buf(0, 4))
        h:add(f.sequence, buf(4, 4))
        h:add(f.ack, buf(8, 4))
        h:add(f.ack_bits, buf(12, 4))
    end
    local err, brk = packet_error(buf, len)
    if err then
        if brk then tree:add(f.trailing, buf(brk)) end
        -- §3: a Hello from a connected client's address is one of its
        -- packets, too short; the client restarted on its old port.
        if to_server and is_hello(buf, len) then
            return "a Hello from a connected client's address (§3, §5.4)", "Hello on a connection"
        end
        return err, "Malformed packet"
    end
    local summary = string.format("conn=%d seq=%d ack=%d", buf(0, 4):uint(), buf(4, 4):uint(), buf(8, 4):uint())
    if v.closed then
        return "packet after the client's Disconnect (§7.3)", "Dropped packet " .. summary, ef.after_disconnect
    end

    -- §5.4: the server drops a packet whose id is not that of the
    -- connection bound to the client's address, and the client one whose id
    -- is not its own; both ends know the id from the Welcome.
    local id = buf(0, 4):uint()
    if v.id and id ~= v.id then
        return string.format("connection id %d differs from the Welcome's %d (§5.4)", id, v.id),
            "Wrong connection", ef.wrong_connection
    end
    if v.seq_err then return v.seq_err, "Dropped packet " .. summary, ef.sequence end

    local names = {}
    local off = PACKET_HEADER
    while off < len do
        local t = buf(off, 2):uint()
        local size = buf(off + 2, 2):uint()
        local name = message_types[t] or string.format("Unknown (0x%04x)", t)
        names[#names + 1] = message_types[t] or "unknown"
        local m = tree:add(rtype, buf(off, MESSAGE_HEADER + size), name)
        m:add(f.msg_type, buf(off, 2))
        m:add(f.msg_size, buf(off + 2, 2))
        local payload = size > 0 and buf(off + MESSAGE_HEADER, size) or buf(off + MESSAGE_HEADER, 0)
        local err
        local decoder = decoders[t]
        if decoder then
            err = decoder(payload, m)
        else
            -- §6: a receiver skips a type it does not know, type 0 (never
            -- sent) included, and keeps processing the packet.
            if size > 0 then m:add(f.msg_payload, payload) end
            m:add_proto_expert_info(ef.unknown_type)
        end
        m:add(f.msg_valid, err == nil):set_generated()
        if err then
            m:add(f.msg_error, err):set_generated()
            m:add_proto_expert_info(ef.bad_message, name .. ": " .. err)
            m:append_text(" [dropped: " .. err .. "]")
            names[#names] = names[#names] .. "(bad)"
        end
        off = off + MESSAGE_HEADER + size
    end
    if #names > 0 then summary = summary .. " " .. table.concat(names, ", ") end
    return nil, summary
end

-- endpoints returns the client's address of a datagram and whether it
-- goes to the server, the endpoint on the server port.
local function endpoints(pinfo)
    if pinfo.dst_port == rtype.prefs.port then
        return tostring(pinfo.src) .. ":" .. pinfo.src_port, true
    end
    return tostring(pinfo.dst) .. ":" .. pinfo.dst_port, false
end

-- new_window is the §5.2 receive window of one direction: the highest
-- sequence received, and seen, which of the 32 below it were.
local function new_window() return { seen = {} } end

-- receive classifies seq in the window w (§5.2), as unsigned numbers, and
-- records it when the receiver keeps it; it returns the error of a
-- sequence the receiver drops, nil otherwise.
local function receive(w, seq)
    if w.highest == nil then
        w.highest = seq
        return nil
    end
    if seq > w.highest then
        local seen = {}
        for s in pairs(w.seen) do
            if seq - s <= 32 then seen[s] = true end
        end
        if seq - w.highest <= 32 then seen[w.highest] = true end
        w.highest, w.seen = seq, seen
        return nil
    end
    if seq == w.highest or w.seen[seq] then return "duplicate sequence (§5.2)" end
    if w.highest - seq > 32 then return "sequence too old (§5.2)" end
    w.seen[seq] = true
    return nil
end

-- MAX_OFFERS is how many ids welcomed to an address are remembered while
-- its client has taken none: a server may answer each repeated Hello with
-- a new id (§4.2, §13), and the client takes the first Welcome it gets.
local MAX_OFFERS = 4

-- welcome is the transition on a valid Welcome to the client of c:
-- welcomed, with one more id; fresh windows after a connection.
local function welcome(c, id)
    if c.phase ~= "welcomed" then
        c.phase, c.offers = "welcomed", {}
        c.win = { [true] = new_window(), [false] = new_window() }
    end
    c.id = id
    place(c)
    for _, o in ipairs(c.offers) do
        if o.id == id then return end
    end
    if #c.offers == MAX_OFFERS then table.remove(c.offers, 1) end
    c.offers[#c.offers + 1] = { id = id, win = new_window() }
end

-- held_to returns the id a packet of connection id between the server and
-- the client of c is held to (§5.4), and the §5.2 window of its direction,
-- nil when the receiver drops it for its id. While welcomed, any id
-- welcomed is one: the server has a connection of each, the client takes
-- any; the client's window is then that id's.
local function held_to(c, id, to_server)
    if c.phase == "welcomed" then
        for _, o in ipairs(c.offers) do
            if o.id == id then return id, to_server and c.win[true] or o.win end
        end
        return c.id, nil
    end
    if id ~= c.id then return c.id, nil end
    return id, c.win[to_server]
end

-- take makes id, welcomed to the client of c, its connection's id.
local function take(c, id)
    for _, o in ipairs(c.offers) do
        if o.id == id then c.win[false] = o.win end
    end
    c.id, c.offers = id, nil
end

-- first_pass reads a datagram of len bytes between the server and client
-- by the phase of client (see conns), takes the transition it makes, and
-- returns its verdict (see verdicts). buf is nil for an empty datagram.
local function first_pass(buf, len, client, to_server)
    local c = conns[client]
    local phase = c and c.phase or "handshake"
    local v = { kind = "handshake" }
    if phase == "connected" then
        v.kind = "packet"
    elseif phase == "welcomed" or (phase == "closed" and not to_server) then
        local _, err = handshake_error(buf, len)
        if err then v.kind = "packet" end
    end
    if v.kind == "handshake" then
        local id = welcome_id(buf, len)
        if id and not to_server then welcome(c or remember(client), id) end
        return v
    end
    v.id = c.id
    if phase == "closed" then
        -- §7.3: the server's packets sent before it read the Disconnect.
        v.closed = true
    elseif packet_error(buf, len) == nil then
        local w
        v.id, w = held_to(c, buf(0, 4):uint(), to_server)
        if w then v.seq_err = receive(w, buf(4, 4):uint()) end
        if w and v.seq_err == nil and to_server then
            if c.phase == "welcomed" then take(c, v.id) end
            -- §7.3: the server closes the connection at once.
            c.phase = has_disconnect(buf, len) and "closed" or "connected"
            place(c)
        end
    end
    return v
end

-- cut_verdict is the verdict on a datagram the capture holds part of
-- only: its kind by the phase of client, no transition, since no receiver
-- is known to have got it whole.
local function cut_verdict(client, to_server)
    local c = conns[client]
    local phase = c and c.phase or "handshake"
    local packet = phase == "welcomed" or phase == "connected" or (phase == "closed" and not to_server)
    return { kind = packet and "packet" or "handshake", cut = true }
end

-- verdict returns the verdict on the datagram of the frame pinfo, of len
-- bytes of which the capture holds captured, and whether it goes to the
-- server. The first pass (pinfo.visited false) reaches every frame in
-- order and records it; any later dissection, in any order, reads it.
local function verdict(buf, len, captured, pinfo)
    local client, to_server = endpoints(pinfo)
    local v = verdicts[pinfo.number]
    if v == nil then
        if captured < len then
            v = cut_verdict(client, to_server)
        else
            v = first_pass(buf, len, client, to_server)
        end
        verdicts[pinfo.number] = v
    end
    return v, to_server
end

-- finish adds the verdict on a datagram to its tree and the Info column;
-- an error is a malformed datagram unless another expert info is given.
local function finish(tree, pinfo, kind, to_server, err, info, err_expert)
    tree:add(f.valid, err == nil):set_generated()
    if err then
        tree:add(f.error, err):set_generated()
        tree:add_proto_expert_info(err_expert or ef.malformed, err)
        tree:append_text((err_expert and ", dropped: " or ", malformed: ") .. err)
    end
    tree:append_text(", " .. kind)
    local dir = to_server and "C→S" or "S→C"
    pinfo.cols.info = dir .. " " .. kind .. " " .. (info or "")
end

-- dissect adds the datagram buf of the frame pinfo to root, of len bytes
-- of which the capture holds captured (buf nil when it holds none), and
-- returns its verdict.
local function dissect(buf, len, captured, pinfo, root)
    pinfo.cols.protocol = "RTYPE"
    local v, to_server = verdict(buf, len, captured, pinfo)
    local tree = buf and root:add(rtype, buf()) or root:add(rtype)
    tree:add(f.kind, v.kind):set_generated()
    local err, info, err_expert
    if v.cut then
        err = string.format("datagram cut by the capture: %d of %d bytes captured", captured, len)
        info = "Cut datagram"
    elseif len == 0 then
        err = v.kind == "packet" and "packet shorter than 16 bytes (§5.4)" or "handshake datagram shorter than 6 bytes (§4.1)"
        info = "Malformed " .. v.kind
    elseif v.kind == "packet" then
        err, info, err_expert = dissect_packet(buf, tree, v, to_server)
    else
        err, info = dissect_handshake(buf, tree)
    end
    finish(tree, pinfo, v.kind, to_server, err, info, err_expert)
    return v
end

function rtype.dissector(buf, pinfo, root)
    -- A datagram an ICMP error quotes went out once already: its own frame
    -- took its verdict and transition.
    if pinfo.in_error_pkt then
        verdicts[pinfo.number] = { quoted = true }
        return 0
    end
    dissect(buf, buf:reported_len(), buf:len(), pinfo, root)
    return buf:len()
end

-- Wireshark hands no empty UDP payload to a port's dissector, nor one the
-- capture holds no byte of, yet they are datagrams on the server port: an
-- empty one a receiver drops, too short for a handshake header (§4.1) or a
-- packet header (§5.4); a cut one is not whole. A postdissector finds them:
-- in the first pass, a UDP frame on the port that the dissector did not
-- see (fields such as udp.length are not filled then under tshark -2), cut
-- when the frame is; later, by the verdict it recorded.
local udp_length = Field.new("udp.length")
local empty = Proto("rtype_empty", "R-Type Protocol v1, empty datagram")
local PT_UDP = 3 -- port_type of pinfo

function empty.dissector(frame, pinfo, root)
    local port = rtype.prefs.port
    if pinfo.port_type ~= PT_UDP or (pinfo.dst_port ~= port and pinfo.src_port ~= port) then return end
    local seen = verdicts[pinfo.number]
    if seen == nil and pinfo.visited then
        -- A verdict lost (preferences changed): udp.length tells.
        local len = udp_length()
        if len == nil or len.value ~= 8 then return end
    elseif seen ~= nil and not seen.post then
        return
    end
    -- The bytes the frame lacks are the datagram's: the capture stopped
    -- right after the UDP header.
    local v = dissect(nil, frame:reported_len() - frame:len(), 0, pinfo, root)
    v.post = true
end
register_postdissector(empty)

local registered_port
local function register()
    local udp = DissectorTable.get("udp.port")
    if registered_port then udp:remove(registered_port, rtype) end
    registered_port = rtype.prefs.port
    udp:add(registered_port, rtype)
end

function rtype.prefs_changed()
    if registered_port ~= rtype.prefs.port then register() end
end

register()
