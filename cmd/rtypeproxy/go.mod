module github.com/rtypeproto/rtype/cmd/rtypeproxy

go 1.24

replace github.com/rtypeproto/rtype => ../..
