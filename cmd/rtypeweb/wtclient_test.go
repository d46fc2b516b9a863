//go:build !js

package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/webtransport-go"
)

// dialGateway opens a WebTransport session to the gateway as a browser
// would, the certificate taken by its hash (serverCertificateHashes),
// with origin ("" for none) and the endpoint's query. It returns the
// response and the session, nil when refused.
func dialGateway(t testing.TB, in *instance, query, origin string) (*http.Response, *webtransport.Session, error) {
	t.Helper()
	return dialURL(t, in.wtURL+query, in.hash, origin)
}

// dialURL opens a session to the WebTransport endpoint url, checking the
// certificate's hash unless hash is nil.
func dialURL(t testing.TB, url string, hash []byte, origin string) (*http.Response, *webtransport.Session, error) {
	t.Helper()
	tr := &webtransport.Transport{
		TLSClientConfig: &tls.Config{
			InsecureSkipVerify: true, // checked by hash below, as a browser does
			VerifyPeerCertificate: func(raw [][]byte, _ [][]*x509.Certificate) error {
				if len(raw) == 0 {
					return errors.New("no certificate")
				}
				if h := sha256.Sum256(raw[0]); hash != nil && !bytes.Equal(h[:], hash) {
					return errors.New("certificate hash differs")
				}
				return nil
			},
		},
		QUICConfig: &quic.Config{EnableDatagrams: true, EnableStreamResetPartialDelivery: true, KeepAlivePeriod: time.Second},
	}
	hdr := http.Header{}
	if origin != "" {
		hdr.Set("Origin", origin)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	rsp, sess, err := tr.Dial(ctx, url, hdr)
	if sess != nil {
		t.Cleanup(func() { sess.CloseWithError(0, "") })
	}
	return rsp, sess, err
}
