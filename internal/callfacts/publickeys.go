package callfacts

import (
	"path"
	"strings"
)

// Public and private halves of key material. A certificate, a chain, a
// signing request or a public key is meant to be handed out: reading,
// printing or sending one reveals nothing (openssl x509 -in
// /etc/letsencrypt/live/site/cert.pem -noout -dates). The private halves
// beside them (privkey.pem, *.key, *-key.pem, id_*) stay credentials.
// Known by the file's name alone, for every program.

// publicKeyWords are the words that say "public key", set aside before
// looking for "key" in a name.
var publicKeyWords = strings.NewReplacer("pubkey", "", "public-key", "", "public_key", "")

// PublicKeyMaterial reports whether p's file name is that of a
// certificate or a public key: *.crt, *.cer, *.csr, *.pub, and .pem
// files named for a certificate, chain, CA bundle or public key —
// never a name that says key (other than pubkey) or private.
func PublicKeyMaterial(p string) bool {
	if !keyExt(path.Ext(path.Base(p))) {
		return false // asked of every path a line touches: most have none of the extensions below
	}
	b := strings.ToLower(path.Base(p))
	if strings.ContainsAny(b, "*?[$") || strings.Contains(b, "priv") || strings.Contains(b, "secret") {
		return false
	}
	ext := path.Ext(b)
	switch ext {
	case ".pub", ".crt", ".cer", ".csr", ".der", ".pem":
	default:
		return false
	}
	noKey := !strings.Contains(publicKeyWords.Replace(b), "key")
	switch ext {
	case ".pub", ".crt", ".cer", ".csr", ".der":
		return noKey || strings.HasSuffix(b, ".pub")
	case ".pem":
		if !noKey {
			return false
		}
		stem := strings.TrimSuffix(b, ".pem")
		for _, w := range []string{"cert", "chain", "pub", "ca-bundle", "cacert", "csr"} {
			if strings.Contains(stem, w) {
				return true
			}
		}
		return stem == "ca" || strings.HasPrefix(stem, "ca-") || strings.HasPrefix(stem, "ca_") || strings.HasSuffix(stem, "-ca") || strings.HasSuffix(stem, "_ca")
	}
	return false
}

// keyExt reports whether ext, lowered, may be one of the extensions
// PublicKeyMaterial reads (.pub, .crt, .cer, .csr, .der, .pem), before
// the file's name is lowered (which allocates for a name with a
// capital, README.md): a pure ASCII ext is compared in any case, one
// with another byte is left to the full test.
func keyExt(ext string) bool {
	for i := 0; i < len(ext); i++ {
		if ext[i] >= 0x80 {
			return true
		}
	}
	if len(ext) != 4 {
		return false
	}
	for _, k := range [...]string{".pub", ".crt", ".cer", ".csr", ".der", ".pem"} {
		if strings.EqualFold(ext, k) {
			return true
		}
	}
	return false
}
