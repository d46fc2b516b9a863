package conformance

import (
	"context"
	"net/netip"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/rtypetest"
)

// TestEndpointLabelsWelcomeOnArrival checks the labels of the datagrams a
// player's socket records (rtypecheck -v): before the Welcome a client
// parses handshake datagrams, after it connected packets (§3). The reader
// records them as they arrive, before the case reads any, so the socket
// itself must see the Welcome: a CreateEntity right behind it is a
// connected packet, and a Welcome of connection id 0, ignored (§4.3),
// changes nothing.
func TestEndpointLabelsWelcomeOnArrival(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		nw := rtypetest.NewNetwork(1)
		srv, err := nw.Listen(memServer)
		if err != nil {
			t.Fatal(err)
		}
		defer srv.Close()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		c := &check{ctx: ctx, start: time.Now(), record: true, net: NetworkOf(nw.Listen), ownNet: true, srv: serverSide{server: memServer}, suite: newSuite(ServerMode), id: "test"}
		c.deadline = c.start.Add(time.Minute)
		p := c.newPlayer()
		defer func() {
			for _, f := range c.cleanups {
				f()
			}
		}()

		create := rtype.PacketHeader{ConnectionID: 7, Sequence: 1}
		b, err := create.AppendBinary(nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err = rtype.AppendMessage(b, rtype.CreateEntity{NetworkID: 9, EntityType: rtype.ArchetypePlayerBlue})
		if err != nil {
			t.Fatal(err)
		}
		zero := rtype.AppendWelcome(nil, 1)
		clear(zero[6:])
		sent := []struct {
			b         []byte
			handshake bool
		}{
			{zero, true},
			{rtype.AppendWelcome(nil, 7), true},
			{b, false},
		}
		for _, s := range sent {
			if _, err := srv.WriteToUDPAddrPort(s.b, p.ep.local); err != nil {
				t.Fatal(err)
			}
		}
		time.Sleep(time.Second)
		synctest.Wait()

		c.mu.Lock()
		defer c.mu.Unlock()
		if len(c.exchange) != len(sent) {
			t.Fatalf("recorded %d datagrams, want %d", len(c.exchange), len(sent))
		}
		for i, d := range c.exchange {
			if d.Handshake != sent[i].handshake {
				t.Errorf("datagram %d (% x) recorded with handshake %v, want %v", i+1, head(d.Bytes), d.Handshake, sent[i].handshake)
			}
		}
	})
}

// TestEndpointInboxBoundedByBytes fills an inbox nobody reads with
// datagrams of the largest UDP payload: it keeps at most inboxBytes of
// them, far fewer than inboxSize datagrams, and counts the rest as
// overflowed.
func TestEndpointInboxBoundedByBytes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		nw := rtypetest.NewNetwork(1)
		srv, err := nw.Listen(memServer)
		if err != nil {
			t.Fatal(err)
		}
		defer srv.Close()
		conn, err := nw.Listen(netip.AddrPortFrom(memServer.Addr(), 0))
		if err != nil {
			t.Fatal(err)
		}
		e, err := newEndpoint(conn)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		big := make([]byte, maxUDP)
		const sent = 2 * inboxBytes / maxUDP
		before := inboxOverflows.Load()
		for range sent {
			if _, err := srv.WriteToUDPAddrPort(big, e.local); err != nil {
				t.Fatal(err)
			}
			// The reader takes each before the next: the network's own
			// queue (rtypetest.QueueLen) never fills.
			synctest.Wait()
		}
		kept := inboxBytes / maxUDP
		got, bytes := e.in.len()
		if got != kept {
			t.Errorf("the inbox holds %d datagrams of %d bytes, want %d (%d bytes)", got, maxUDP, kept, inboxBytes)
		}
		if bytes > inboxBytes {
			t.Errorf("the inbox holds %d bytes, more than %d", bytes, inboxBytes)
		}
		if got, want := e.in.overflow.Load(), int64(sent-kept); got != want {
			t.Errorf("%d datagrams overflowed, want %d", got, want)
		}
		if got := inboxOverflows.Load() - before; got != e.in.overflow.Load() {
			t.Errorf("inboxOverflows grew by %d, the endpoint counted %d", got, e.in.overflow.Load())
		}
	})
}
