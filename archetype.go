package rtype

// Archetype identifies the blueprint an entity is built from (§9.3): the
// 32-bit FNV-1a hash of the blueprint name folded to 16 bits. The zero value
// is not the id of any blueprint the server uses.
type Archetype uint16

// The blueprints the version 1 server uses (§9.3).
const (
	ArchetypePlayerBlue   Archetype = 0xBD3E // player_blue: ship of player slot 1
	ArchetypePlayerGreen  Archetype = 0x54EE // player_green: ship of player slot 2
	ArchetypePlayerPink   Archetype = 0x8F7A // player_pink: ship of player slot 3
	ArchetypePlayerRed    Archetype = 0xFAD4 // player_red: ship of player slot 4
	ArchetypeBullet       Archetype = 0x4BED // bullet: player missile
	ArchetypeEnemyBidos   Archetype = 0x87FF // enemyBidos: Bydos enemy
	ArchetypeLowGround    Archetype = 0x7EAF // low_ground: stage tile
	ArchetypeMediumGround Archetype = 0xA6A3 // medium_ground: stage tile
	ArchetypeHighGround   Archetype = 0x189D // high_ground: stage tile
	ArchetypeRamp         Archetype = 0xBE70 // ramp: stage tile
	ArchetypeReactor      Archetype = 0x6C78 // reactor: stage tile
	ArchetypeGate         Archetype = 0xFD72 // gate: stage tile
)

// FNV-1a parameters (§9.3).
const (
	fnvOffset32 uint32 = 2166136261
	fnvPrime32  uint32 = 16777619
)

// ArchetypeOf computes the archetype id of a blueprint name (§9.3): the
// 32-bit FNV-1a hash of its bytes, folded as (hash >> 16) XOR (hash & 0xFFFF).
func ArchetypeOf(name string) Archetype {
	h := fnvOffset32
	for i := 0; i < len(name); i++ {
		h ^= uint32(name[i])
		h *= fnvPrime32
	}
	return Archetype(h>>16 ^ h&0xFFFF)
}

// Name returns the blueprint name of one of the twelve archetypes of §9.3,
// and false for any other id, which a client should ignore.
func (a Archetype) Name() (string, bool) {
	switch a {
	case ArchetypePlayerBlue:
		return "player_blue", true
	case ArchetypePlayerGreen:
		return "player_green", true
	case ArchetypePlayerPink:
		return "player_pink", true
	case ArchetypePlayerRed:
		return "player_red", true
	case ArchetypeBullet:
		return "bullet", true
	case ArchetypeEnemyBidos:
		return "enemyBidos", true
	case ArchetypeLowGround:
		return "low_ground", true
	case ArchetypeMediumGround:
		return "medium_ground", true
	case ArchetypeHighGround:
		return "high_ground", true
	case ArchetypeRamp:
		return "ramp", true
	case ArchetypeReactor:
		return "reactor", true
	case ArchetypeGate:
		return "gate", true
	}
	return "", false
}

// String returns the blueprint name of a known archetype (§9.3), else
// "Archetype(0x....)".
func (a Archetype) String() string {
	if name, ok := a.Name(); ok {
		return name
	}
	return "Archetype(0x" + hex16(uint16(a)) + ")"
}

// IsStageTile reports whether a is one of the six stage tiles, which a
// client should draw flipped vertically when placed at y = 0 (§9.3).
func (a Archetype) IsStageTile() bool {
	switch a {
	case ArchetypeLowGround, ArchetypeMediumGround, ArchetypeHighGround,
		ArchetypeRamp, ArchetypeReactor, ArchetypeGate:
		return true
	}
	return false
}

// hex16 formats v as four upper-case hex digits.
func hex16(v uint16) string {
	const digits = "0123456789ABCDEF"
	return string([]byte{digits[v>>12], digits[v>>8&0xF], digits[v>>4&0xF], digits[v&0xF]})
}
