module github.com/rtypeproto/rtype/cmd/rtypedump

go 1.25

require (
	github.com/google/go-cmp v0.7.0
	github.com/gopacket/gopacket v1.2.0
	github.com/rtypeproto/rtype v0.0.0-00010101000000-000000000000
	golang.org/x/sys v0.13.0
)

require golang.org/x/net v0.17.0 // indirect

replace github.com/rtypeproto/rtype => ../..
