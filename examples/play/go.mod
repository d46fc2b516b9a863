module github.com/rtypeproto/rtype/examples/play

go 1.26.0

require (
	github.com/google/go-cmp v0.7.0
	github.com/rtypeproto/rtype v0.0.0-00010101000000-000000000000
)

replace github.com/rtypeproto/rtype => ../..
