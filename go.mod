module github.com/rtypeproto/rtype

go 1.24
