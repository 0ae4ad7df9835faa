package callfacts

import "strings"

// Options whose value is a key, token or password file the program logs
// in with (jenkins-cli -auth @FILE, ansible-playbook --vault-password-file
// FILE, restic --password-file FILE): the program uses the secret for the
// service it talks to and prints nothing of it, as ssh uses -i KEY. The
// value is not a file the command reads out, so no path fact is made of
// it; cat of the same file is.
var credFileOpts = map[string]bool{"-auth": true, "--auth": true, "--key-file": true, "--keyfile": true, "--token-file": true, "--tokenfile": true,
	"--password-file": true, "--passwordfile": true, "--passfile": true, "--passphrase-file": true, "--vault-password-file": true, "--vault-pass-file": true,
	"--vault-id": true, "--credentials-file": true, "--credential-file": true, "--creds-file": true, "--identity-file": true, "--private-key-file": true,
	"--service-account-key-file": true, "--secret-file": true, "--client-key": true, "--api-key-file": true, "--apikey-file": true, "--auth-file": true,
	"--authfile": true, "--netrc-file": true,
	// a TLS or SSH client's own key, used to connect
	// (mosquitto_sub --key, curl --key, openssl s_client -key, grpcurl
	// -key, mysql --ssl-key, an ssh-like -i); printed by cat, not by them
	"--key": true, "-key": true, "--ssl-key": true, "--sslkey": true, "--tls-key": true, "--tlskey": true, "--tls-key-file": true,
	"--ssl-key-file": true, "--client-key-file": true, "--private-key": true, "--key-path": true, "--tls-client-key": true}

// withoutCredFiles drops from pos the values given to credFileOpts in
// args.
func withoutCredFiles(args, pos []string) []string {
	var drop map[string]bool
	for i := 0; i+1 < len(args); i++ {
		if credFileOpts[args[i]] || idOpt(args[i]) || args[i] == "-X" && strings.HasPrefix(args[i+1], "ssl.key.location=") {
			if drop == nil {
				drop = map[string]bool{}
			}
			drop[args[i+1]] = true
		}
	}
	if drop == nil {
		return pos
	}
	out := make([]string, 0, len(pos))
	for _, p := range pos {
		if !drop[p] && !drop[strings.TrimPrefix(p, "@")] {
			out = append(out, p)
		}
	}
	return out
}

// idOpt: a long option whose value names a thing on a service by its id,
// ARN or identifier (aws secretsmanager describe-secret --secret-id
// prod/checkout/db-credentials, --db-instance-identifier): a name there,
// not a file here, whatever slashes it has.
func idOpt(a string) bool {
	if !strings.HasPrefix(a, "--") || strings.Contains(a, "=") {
		return false
	}
	return strings.HasSuffix(a, "-id") || strings.HasSuffix(a, "-arn") || strings.HasSuffix(a, "-identifier")
}
