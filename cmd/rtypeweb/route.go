//go:build !js

package main

import (
	"errors"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
)

// sessionPath is the path of the WebTransport endpoint the page opens.
const sessionPath = "/rtype"

// Why a session request is refused before any datagram is relayed.
var (
	ErrOrigin = errors.New("rtypeweb: origin not allowed")
	ErrRoute  = errors.New("rtypeweb: no such session path or server")
)

// router maps a browser's session request to one of the configured
// servers. A browser chooses at most an index into that list, never an
// address: the gateway is no open relay (§12).
type router struct {
	servers []netip.AddrPort
	origins map[string]bool // allowed Origin headers, lower case
}

// route returns the server for a request of path and raw query from
// origin ("" when the client sent none: no browser, so no page to
// protect; every other bound still holds).
func (r *router) route(path, rawQuery, origin string) (netip.AddrPort, error) {
	if origin != "" && !r.origins[strings.ToLower(origin)] {
		return netip.AddrPort{}, ErrOrigin
	}
	if path != sessionPath {
		return netip.AddrPort{}, ErrRoute
	}
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return netip.AddrPort{}, ErrRoute
	}
	i := 0
	if s := q.Get("server"); s != "" {
		if i, err = strconv.Atoi(s); err != nil || i < 0 || i >= len(r.servers) {
			return netip.AddrPort{}, ErrRoute
		}
	}
	return r.servers[i], nil
}
