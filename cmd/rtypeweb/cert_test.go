//go:build !js

package main

import (
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"io"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The self-signed certificate is one a browser takes by its hash: ECDSA
// P-256, valid now, for less than two weeks, for the loopback addresses.
func TestSelfSigned(t *testing.T) {
	now := time.Now()
	cert, hash, err := selfSigned("127.0.0.1", now)
	if err != nil {
		t.Fatal(err)
	}
	c, err := x509.ParseCertificate(cert.Certificate[0])
	if err != nil {
		t.Fatal(err)
	}
	if c.PublicKeyAlgorithm != x509.ECDSA || !c.NotBefore.Before(now) || !c.NotAfter.After(now) ||
		c.NotAfter.Sub(c.NotBefore) >= 14*24*time.Hour {
		t.Errorf("%v key, valid %v to %v: want ECDSA, valid now, under 14 days", c.PublicKeyAlgorithm, c.NotBefore, c.NotAfter)
	}
	if err := c.VerifyHostname("127.0.0.1"); err != nil {
		t.Error(err)
	}
	if hash != sha256.Sum256(cert.Certificate[0]) {
		t.Error("the hash is not the certificate's SHA-256")
	}
}

// With -cert and -key the page is served over HTTPS with that
// certificate, and the page gets no hash: browsers trust it.
func TestGateway_CertFlags(t *testing.T) {
	t.Parallel()
	cert, _, err := selfSigned("127.0.0.1", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	key, err := x509.MarshalPKCS8PrivateKey(cert.PrivateKey)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Certificate[0]}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: key}), 0o600); err != nil {
		t.Fatal(err)
	}
	in, _ := startGateway(t, []netip.AddrPort{echoServer(t)}, func(o *options) { o.cert, o.key = certFile, keyFile })
	if !strings.HasPrefix(in.url, "https://") || in.hash != nil {
		t.Fatalf("page at %s, hash %x: want https and no hash", in.url, in.hash)
	}
	pool := x509.NewCertPool()
	pool.AddCert(mustParse(t, cert.Certificate[0]))
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	resp, err := client.Get(in.url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || strings.Contains(string(body), "certHash") {
		t.Errorf("the page: %s, a certificate hash in it: %v", resp.Status, strings.Contains(string(body), "certHash"))
	}
	given := sha256.Sum256(cert.Certificate[0])
	if _, _, err := dialURL(t, in.wtURL, given[:], ""); err != nil {
		t.Errorf("a session with the given certificate: %v", err)
	}
}

func mustParse(t *testing.T, der []byte) *x509.Certificate {
	t.Helper()
	c, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
