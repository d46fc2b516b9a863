module example.com/mygame

go 1.25

require github.com/rtypeproto/rtype v0.0.0

// The toolkit is not published yet: point at a checkout of it.
replace github.com/rtypeproto/rtype => REPLACE_ME
