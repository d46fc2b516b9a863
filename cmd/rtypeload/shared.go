package main

import (
	"net"
	"net/netip"

	"github.com/rtypeproto/rtype/internal/mmsg"
)

// On loopback, a loop's bots share one socket: each bot has an address of
// its own in 127.0.0.0/8 (the server tells clients apart by address, §3,
// and the port may be the same), chosen per datagram with IP_PKTINFO, so
// that one sendmmsg carries the Inputs of up to a batch of bots and one
// recvmmsg reads what the server sent to as many. Against any other
// server, or where the kernel cannot, each bot has a socket.

// botAddrBase is the first bot's address; bot g of the run is base + g.
var botAddrBase = netip.AddrFrom4([4]byte{127, 64, 0, 1})

// botAddr is the address of bot g of the run (match g/4, bot g%4).
func botAddr(g int) netip.Addr {
	b := botAddrBase.As4()
	v := uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
	v += uint32(g)
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)})
}

// botIndex is the g of botAddr(g), or -1 for another address.
func botIndex(a netip.Addr, total int) int {
	if !a.Is4() {
		return -1
	}
	x, b := a.As4(), botAddrBase.As4()
	v := uint32(x[0])<<24 | uint32(x[1])<<16 | uint32(x[2])<<8 | uint32(x[3])
	base := uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
	if v < base || v-base >= uint32(total) {
		return -1
	}
	return int(v - base)
}

// sharedSocket opens a loop's shared socket for a server at server, or
// returns nil when the bots need a socket each.
func sharedSocket(server netip.AddrPort) *mmsg.Conn {
	if !server.Addr().Unmap().Is4() || !server.Addr().IsLoopback() {
		return nil
	}
	c, err := mmsg.Listen("udp4", &net.UDPAddr{IP: net.IPv4zero})
	if err != nil {
		return nil
	}
	if c.PacketInfo() != nil || c.Timestamps() != nil {
		c.Close()
		return nil
	}
	// A frame's datagrams for every bot of the loop wait here.
	_ = c.Control(func(fd uintptr) { setReadBuffer(fd, 8<<20) })
	return c
}
