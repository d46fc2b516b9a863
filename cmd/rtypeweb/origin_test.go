//go:build !js

package main

import "testing"

// A browser serializes an origin without the scheme's default port
// (RFC 6454 §6.2): a gateway on 443, or an -origin given with :443,
// must allow the origin as its pages send it.
func TestListener_OriginsOnDefaultPort(t *testing.T) {
	for _, c := range []struct {
		name       string
		l          listener
		extra      string
		want, deny string
	}{
		{"own, https on 443", listener{scheme: "https", host: "game.example", port: 443}, "", "https://game.example", "https://evil.example"},
		{"own, http on 80", listener{scheme: "http", host: "127.0.0.1", port: 80}, "", "http://localhost", "http://localhost:8080"},
		{"own, IPv6 loopback", listener{scheme: "http", host: "::1", port: 80}, "", "http://[::1]", "http://[::2]"},
		{"-origin with :443", listener{scheme: "https", host: "gw.example", port: 4433}, "https://Game.example:443/", "https://game.example", "https://game.example:4433"},
		{"another port kept", listener{scheme: "https", host: "gw.example", port: 4433}, "", "https://gw.example:4433", "https://gw.example"},
	} {
		m := c.l.origins(c.extra)
		if !m[c.want] {
			t.Errorf("%s: %q refused; allowed: %v", c.name, c.want, m)
		}
		if m[c.deny] {
			t.Errorf("%s: %q allowed", c.name, c.deny)
		}
	}
}
