module github.com/rtypeproto/rtype/cmd/rtypeproxy

go 1.24

replace github.com/rtypeproto/rtype => ../..

require github.com/google/go-cmp v0.7.0
