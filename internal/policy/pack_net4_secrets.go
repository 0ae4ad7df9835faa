package policy

import "strings"

// hostKeyDirs hold the machine's own keys outside /etc/ssh and
// /etc/shadow: tunnel and VPN keys, Wi-Fi passwords, TLS private keys,
// a Kerberos keytab. A file under one is a secret to print or send like
// .env; listing the directory or counting lines in a file is not.
var hostKeyDirs = []string{"/etc/wireguard/", "/etc/NetworkManager/system-connections/", "/etc/letsencrypt/live/",
	"/etc/letsencrypt/archive/", "/etc/openvpn/", "/etc/pki/tls/private/", "/etc/ipsec.d/private/", "/etc/tailscale/"}

// hostKeyFile reports whether p is a host's key or password file.
func hostKeyFile(p string) bool {
	if p == "/etc/ipsec.secrets" || p == "/etc/krb5.keytab" || p == "/var/lib/tailscale/tailscaled.state" {
		return true
	}
	for _, d := range hostKeyDirs {
		if strings.HasPrefix(p, d) && len(p) > len(d) {
			return true
		}
	}
	return false
}

// privilegeWrappers run the command after them as another user; the
// paths they are given belong to that command.
var privilegeWrappers = map[string]bool{"sudo": true, "doas": true, "run0": true, "pkexec": true}
