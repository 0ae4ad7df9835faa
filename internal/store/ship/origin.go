package ship

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
)

// originName returns the name this local store ships under: Options.Origin,
// else the one kept in the local store, made on first use. Two shippers
// racing to make it agree on the one ClaimSetting let through.
func (s *Shipper) originName(ctx context.Context) (string, error) {
	if s.o.Origin != "" {
		return s.o.Origin, nil
	}
	if s.origin != "" {
		return s.origin, nil
	}
	o, err := Origin(ctx, s.o.Spool)
	if err != nil {
		return "", err
	}
	s.origin = o
	return o, nil
}

// Origin returns the local store's origin name, making it when missing:
// the host name and 6 random bytes.
func Origin(ctx context.Context, sp Spool) (string, error) {
	v, ok, err := sp.Setting(ctx, SettingOrigin)
	if err != nil {
		return "", fmt.Errorf("local store: %w", err)
	}
	if ok && v != "" {
		return v, nil
	}
	host, _ := os.Hostname()
	if host == "" {
		host = "host"
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	if _, err := sp.ClaimSetting(ctx, SettingOrigin, host+"-"+hex.EncodeToString(b)); err != nil {
		return "", fmt.Errorf("local store: %w", err)
	}
	v, _, err = sp.Setting(ctx, SettingOrigin)
	if err != nil {
		return "", fmt.Errorf("local store: %w", err)
	}
	return v, nil
}
