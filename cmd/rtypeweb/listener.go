//go:build !js

package main

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"
)

// listener is where the gateway is reached, and with what certificate.
type listener struct {
	tls    *tls.Config
	hash   []byte // of the self-signed certificate; nil with -cert
	scheme string // of the page: http with a self-signed certificate
	host   string // in the URLs
	port   int
}

// listener makes the TLS configuration: -cert's, or a self-signed
// certificate whose hash the page gives the browser. Over plain HTTP the
// page is a secure context, as WebTransport needs, only on a loopback
// host: elsewhere give -cert.
func (o *options) listener(udp *net.UDPConn, tcp net.Listener) (*listener, error) {
	host, _, _ := net.SplitHostPort(o.addr)
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	l := &listener{host: host, port: udp.LocalAddr().(*net.UDPAddr).Port, scheme: "http"}
	var cert tls.Certificate
	var err error
	if o.cert != "" {
		cert, err = tls.LoadX509KeyPair(o.cert, o.key)
		l.scheme = "https"
	} else {
		var h [32]byte
		cert, h, err = selfSigned(host, time.Now())
		l.hash = h[:]
	}
	if err != nil {
		return nil, err
	}
	l.tls = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS13}
	return l, nil
}

func (l *listener) hostPort() string { return net.JoinHostPort(l.host, fmt.Sprint(l.port)) }

// pageURL is the address players open.
func (l *listener) pageURL() string { return l.scheme + "://" + l.hostPort() + "/" }

// sessionURL is the WebTransport endpoint the page opens.
func (l *listener) sessionURL() string { return "https://" + l.hostPort() + sessionPath }

// origins are the page origins allowed to open sessions: the page's own,
// under every loopback name when it is on one, and extra's, each as a
// browser writes it, without the scheme's default port (RFC 6454, section 6.2).
func (l *listener) origins(extra string) map[string]bool {
	m := map[string]bool{origin(l.scheme, l.host, l.port): true}
	if ip := net.ParseIP(l.host); l.host == "localhost" || (ip != nil && ip.IsLoopback()) {
		for _, h := range []string{"localhost", "127.0.0.1", "::1"} {
			m[origin(l.scheme, h, l.port)] = true
		}
	}
	for _, o := range strings.Split(extra, ",") {
		if o = strings.ToLower(strings.TrimSuffix(strings.TrimSpace(o), "/")); o != "" {
			m[withoutDefaultPort(o)] = true
		}
	}
	return m
}

// origin serializes scheme, host and port as a browser does.
func origin(scheme, host string, port int) string {
	return withoutDefaultPort(strings.ToLower(scheme + "://" + net.JoinHostPort(host, fmt.Sprint(port))))
}

// withoutDefaultPort drops :443 from an https origin, :80 from an http one.
func withoutDefaultPort(o string) string {
	switch {
	case strings.HasPrefix(o, "https://"):
		return strings.TrimSuffix(o, ":443")
	case strings.HasPrefix(o, "http://"):
		return strings.TrimSuffix(o, ":80")
	}
	return o
}

// servePage serves the page on tcp until the server closes.
func (l *listener) servePage(srv *http.Server, tcp net.Listener) error {
	var err error
	if l.scheme == "https" {
		srv.TLSConfig = l.tls
		err = srv.ServeTLS(tcp, "", "")
	} else {
		err = srv.Serve(tcp)
	}
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}
