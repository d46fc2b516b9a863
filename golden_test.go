package rtype

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The examples of §11, kept as hex in testdata/golden, decoded and
// re-encoded byte for byte.

func TestSpec11_1_Hello(t *testing.T) {
	want := readHex(t, "testdata/golden/hello.hex")
	typ, id, err := ParseHandshake(want)
	if err != nil || typ != HandshakeHello || id != 0 {
		t.Fatalf("ParseHandshake = %v, %d, %v; want Hello, 0, nil", typ, id, err)
	}
	if diff := cmp.Diff(want, AppendHello(nil)); diff != "" {
		t.Errorf("AppendHello (-spec +got):\n%s", diff)
	}
}

func TestSpec11_2_Welcome(t *testing.T) {
	want := readHex(t, "testdata/golden/welcome.hex")
	typ, id, err := ParseHandshake(want)
	if err != nil || typ != HandshakeWelcome || id != 1 {
		t.Fatalf("ParseHandshake = %v, %d, %v; want Welcome, 1, nil", typ, id, err)
	}
	if diff := cmp.Diff(want, AppendWelcome(nil, 1)); diff != "" {
		t.Errorf("AppendWelcome (-spec +got):\n%s", diff)
	}
}

func TestSpec11_3_InputPacket(t *testing.T) {
	want := readHex(t, "testdata/golden/input_packet.hex")
	if len(want) != 29 {
		t.Fatalf("golden packet is %d bytes, §11.3 says 29", len(want))
	}
	p, err := ParsePacket(want)
	if err != nil {
		t.Fatal(err)
	}
	wantHeader := PacketHeader{ConnectionID: 1, Sequence: 5, Ack: 120, AckBits: 0xFFFFFFFF}
	if diff := cmp.Diff(wantHeader, p.Header()); diff != "" {
		t.Errorf("header (-spec +got):\n%s", diff)
	}
	var got []Input
	for m := range p.Messages() {
		if m.Type != TypeInput {
			t.Fatalf("message type %v, want Input", m.Type)
		}
		var in Input
		if err := in.UnmarshalBinary(m.Payload); err != nil {
			t.Fatal(err)
		}
		got = append(got, in)
	}
	wantInputs := []Input{{InputSequence: 42, ClientTick: 300, Actions: ActionUp | ActionShoot}}
	if diff := cmp.Diff(wantInputs, got); diff != "" {
		t.Errorf("messages (-spec +got):\n%s", diff)
	}

	var b Builder
	if err := b.Reset(wantHeader); err != nil {
		t.Fatal(err)
	}
	if err := Add(&b, wantInputs[0]); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, b.Bytes()); diff != "" {
		t.Errorf("Builder (-spec +got):\n%s", diff)
	}
}

func TestSpec11_4_CreateEntityBydos(t *testing.T) {
	want := readHex(t, "testdata/golden/create_entity_bydos.hex")
	m := CreateEntity{
		ServerTick: 600,
		NetworkID:  1005,
		EntityType: ArchetypeOf("enemyBidos"),
		X:          PosFromPixels(2000),
		Y:          PosFromPixels(300),
		Rotation:   RotFromRadians(0),
	}
	got, err := AppendMessage(nil, m)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("AppendMessage (-spec +got):\n%s", diff)
	}
	// The message alone, read back through a packet's message area.
	pkt := append(PacketHeader{ConnectionID: 1}.append(nil), want...)
	p, err := ParsePacket(pkt)
	if err != nil {
		t.Fatal(err)
	}
	for raw := range p.Messages() {
		var dec CreateEntity
		if err := dec.UnmarshalBinary(raw.Payload); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(m, dec); diff != "" {
			t.Errorf("decoded (-want +got):\n%s", diff)
		}
		if dec.X.Pixels() != 2000 || dec.Y.Pixels() != 300 || dec.Rotation.Radians() != 0 {
			t.Errorf("decoded position (%v, %v, %v), want (2000, 300, 0)", dec.X.Pixels(), dec.Y.Pixels(), dec.Rotation.Radians())
		}
	}
}

// §9.1: x = 2000 gives 40768, sent as 9F 40; the range ends map to the
// extreme codes.
func TestSpec9_1_Positions(t *testing.T) {
	tests := []struct {
		px   float64
		code Pos16
	}{
		{2000, 0x9F40},
		{300, 0x84B0},
		{0, 0x8000},
		{-8192, 0x0000},
		{8191.75, 0xFFFF},
		{0.25, 0x8001},
		{-0.25, 0x7FFF},
		{0.125, 0x8001},  // (0.125 + 8192) × 4 = 32768.5, half away from zero
		{-0.125, 0x8000}, // 32767.5 rounds up to 32768
	}
	for _, tt := range tests {
		if got := PosFromPixels(tt.px); got != tt.code {
			t.Errorf("PosFromPixels(%v) = %#04x, want %#04x", tt.px, got, tt.code)
		}
		if got := tt.code.Pixels(); got != tt.px && tt.px != 0.125 && tt.px != -0.125 {
			t.Errorf("Pos16(%#04x).Pixels() = %v, want %v", tt.code, got, tt.px)
		}
	}
}

// §9.2: 0 is 0 radians, 16384 is π/2, 32768 is π.
func TestSpec9_2_Rotations(t *testing.T) {
	const pi = 3.141592653589793
	tests := []struct {
		rad  float64
		code Rot16
	}{
		{0, 0},
		{pi / 2, 16384},
		{pi, 32768},
		{-pi / 2, 49152}, // negative angles wrap
		{2 * pi, 0},
		{5 * pi / 2, 16384},
	}
	for _, tt := range tests {
		if got := RotFromRadians(tt.rad); got != tt.code {
			t.Errorf("RotFromRadians(%v) = %d, want %d", tt.rad, got, tt.code)
		}
	}
	if got := Rot16(16384).Radians(); got != pi/2 {
		t.Errorf("Rot16(16384).Radians() = %v, want π/2", got)
	}
}

// §9.3: every blueprint of the table hashes to its listed id and back to
// its name.
func TestSpec9_3_Archetypes(t *testing.T) {
	f, err := os.Open("testdata/archetypes.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, idText, ok := strings.Cut(line, "\t")
		id, err := strconv.ParseUint(strings.TrimPrefix(idText, "0x"), 16, 16)
		if !ok || err != nil {
			t.Fatalf("bad line %q", line)
		}
		rows++
		if got := ArchetypeOf(name); got != Archetype(id) {
			t.Errorf("ArchetypeOf(%q) = %#04x, want %#04x", name, uint16(got), id)
		}
		if got := Archetype(id).String(); got != name {
			t.Errorf("Archetype(%#04x).String() = %q, want %q", id, got, name)
		}
	}
	if rows != 12 {
		t.Errorf("read %d blueprints, §9.3 lists 12", rows)
	}
	if got := Archetype(0x1234).String(); got != "Archetype(0x1234)" {
		t.Errorf("unknown archetype String() = %q", got)
	}
	if _, ok := Archetype(0x1234).Name(); ok {
		t.Error("Name reports an unknown archetype as known")
	}
}
