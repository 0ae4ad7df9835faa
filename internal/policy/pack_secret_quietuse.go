package policy

// Programs that use a secret file without showing it. A signer reads the
// private key to sign an artifact and writes only the signature; a
// keystore tool lists certificates (public) or creates keys; an ACL tool
// changes who may read the file and never opens it. None puts the secret
// into the conversation, so reading it through them is not a secret read
// (what they delete or send is judged by their own rules: keytool
// -delete, icacls … /grant Everyone:F).

// keyUsers sign or verify with a key file and print no key material.
var keyUsers = map[string]bool{
	"sign-file": true, "kmodsign": true, "sbsign": true, "sbverify": true, "pesign": true, "jarsigner": true,
	"apksigner": true, "osslsigncode": true, "signtool": true, "codesign": true, "rpmsign": true, "debsign": true,
	"dpkg-sig": true, "minisign": true, "signify": true, "keytool": true, "zipalign": true, "productsign": true,
	"notarytool": true, "xmlsec1": true,
	// wallets' keypair users: solana-keygen pubkey prints the public half,
	// cardano-cli signs with a .skey
	"solana-keygen": true, "cardano-cli": true,
	// password-file tools that write a user's hash into the
	// file they are given (mosquitto_passwd -b FILE user pw), never print it
	"mosquitto_passwd": true, "htpasswd": true, "varnishadm": true, // varnishadm -S SECRET: the admin port's shared secret, used to log in
	// config encoders that sign what they write with a shared secret
	// (docsis -e CONFIG KEYFILE OUT: a cable modem config's MIC)
	"docsis": true,
}

// aclSetters change a file's permissions or owner, not its content.
var aclSetters = map[string]bool{"icacls": true, "cacls": true, "xcacls": true, "takeown": true, "attrib": true, "setfattr": true}

// usesSecretQuietly: every command named via uses the secret without
// printing it (and none of them prints keys on request: keytool
// -exportcert and -list show certificates, which are public).
func usesSecretQuietly(e *Env, via string) bool {
	if printsPublicHalf(e, via) {
		return true // ssh-keygen -y, openssl rsa -pubout, klist -k, kinit -kt (pack_key_use.go)
	}
	cs := e.F.Cmds(via)
	if len(cs) == 0 {
		return false
	}
	for _, c := range cs {
		if !keyUsers[c.Name] && !aclSetters[c.Name] {
			return false
		}
	}
	return true
}
