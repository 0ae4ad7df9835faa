package policy

import (
	"strings"
)

// Exposure: putting something of this machine or a private service where
// the whole internet reaches it. A server bound to every interface with
// its authentication switched off, a port-forward of a cluster's service
// bound to every interface, a firewall or network rule opened to
// 0.0.0.0/0 or ::/0, a reverse tunnel listening on a public host's every
// interface: each is denied.

// anyAddr: a bind address meaning every interface.
func anyAddr(v string) bool {
	v = strings.Trim(v, `"'[]`)
	return v == "0.0.0.0" || v == "*" || v == "::" || v == "0" || strings.HasPrefix(v, "0.0.0.0:") || strings.HasPrefix(v, "[::]:")
}

// worldCIDR: a network range meaning every address.
func worldCIDR(a string) bool {
	return strings.Contains(a, "0.0.0.0/0") || strings.Contains(a, "::/0") || strings.Contains(a, "0.0.0.0/00")
}

// authOff: an option that switches a server's authentication off
// (--ServerApp.token=”, --auth none, --no-auth, --disable-auth).
func authOff(c *Cmd) string {
	for i, a := range c.Args {
		k, v, hasV := strings.Cut(a, "=")
		lk := strings.ToLower(k)
		if !hasV && i+1 < len(c.Args) && !strings.HasPrefix(c.Args[i+1], "-") {
			v = c.Args[i+1]
		}
		v = strings.Trim(v, `"'`)
		switch {
		case (strings.HasSuffix(lk, ".token") || strings.HasSuffix(lk, ".password") || lk == "--token" || lk == "--password") && v == "" && hasV:
			return a
		case (lk == "--auth" || lk == "--authentication") && (v == "none" || v == "false" || v == "off"):
			return k + " " + v
		case lk == "--no-auth" || lk == "--disable-auth" || lk == "--noauth" || lk == "--without-auth" || lk == "--insecure-disable-auth":
			return a
		case strings.HasSuffix(lk, ".disable_check_xsrf") && strings.EqualFold(v, "true"):
			return a
		}
	}
	return ""
}

// bindsAll: the server listens on every interface (--ip 0.0.0.0,
// --host=0.0.0.0, --bind-addr 0.0.0.0:8080, --address 0.0.0.0).
func bindsAll(c *Cmd) bool {
	for i, a := range c.Args {
		k, v, hasV := strings.Cut(a, "=")
		switch strings.ToLower(k) {
		case "--ip", "--host", "--bind", "--bind-addr", "--address", "--addr", "--listen", "-b", "--hostname", "--serverapp.ip", "--notebookapp.ip", "--server.address":
			if !hasV && i+1 < len(c.Args) {
				v = c.Args[i+1]
			}
			if anyAddr(v) {
				return true
			}
		}
	}
	return false
}

// netRangeOpeners are the CLIs that manage firewalls, security groups and
// authorized networks.
var netRangeOpeners = []string{"aws", "gcloud", "az", "hcloud", "doctl", "linode-cli", "oci", "ibmcloud", "openstack", "scw", "vultr-cli",
	"exo", "upctl", "civo", "ufw", "firewall-cmd", "terraform", "pulumi", "fly", "flyctl", "heroku", "supabase", "pscale", "neonctl", "atlas", "mongocli"}

func exposureRules() []Rule {
	return []Rule{
		{
			ID: "external.systems:expose-server", Mode: Deny, Tools: shellTools,
			Cmds: []string{"jupyter", "jupyter-lab", "jupyter-notebook", "code-server", "kubectl", "oc", "k", "ssh", "autossh", "ttyd", "gotty", "openvscode-server", "rstudio-server", "tensorboard", "streamlit", "mlflow", "redis-server", "mongod", "filebrowser", "gradio", "marimo"},
			Desc: "A server or a forward bound to every interface (0.0.0.0, ::, *) with its authentication off (jupyter --ServerApp.token='', code-server --auth none), a cluster service port-forwarded to every interface, or a reverse tunnel listening on a remote host's every interface (ssh -R 0.0.0.0:…): reachable by anyone on the network",
			Match: func(e *Env) string {
				for i := range e.F.Commands {
					c := &e.F.Commands[i]
					if onlyHelp(c) || c.Has("--help") {
						continue
					}
					switch c.Name {
					case "kubectl", "oc", "k":
						if sub(c) == "port-forward" && bindsAll(c) {
							return c.Name + " port-forwards a cluster service to every interface of this machine: " + c.String()
						}
					case "ssh", "autossh":
						for j, a := range c.Args {
							v := ""
							switch {
							case a == "-R" && j+1 < len(c.Args):
								v = c.Args[j+1]
							case strings.HasPrefix(a, "-R") && len(a) > 2:
								v = a[2:]
							}
							if v != "" && (strings.HasPrefix(v, "0.0.0.0:") || strings.HasPrefix(v, "*:") || strings.HasPrefix(v, "[::]:") || strings.HasPrefix(v, ":")) {
								return c.Name + " opens a reverse tunnel on every interface of the remote host: " + c.String()
							}
						}
					case "redis-server", "mongod":
						if bindsAll(c) || strings.Contains(lowerArgs(c), "protected-mode no") {
							if c.Name == "mongod" && !c.Has("--auth") || c.Name == "redis-server" && !strings.Contains(lowerArgs(c), "requirepass") {
								return c.Name + " listens on every interface with no password: " + c.String()
							}
						}
					default:
						if off := authOff(c); off != "" && bindsAll(c) {
							return c.Name + " listens on every interface with its authentication off (" + off + "): " + c.String()
						}
					}
				}
				return ""
			},
			Catch: []string{"jupyter lab --ip 0.0.0.0 --ServerApp.token='' --ServerApp.password='' --no-browser", "jupyter notebook --ip=0.0.0.0 --NotebookApp.token=''",
				"code-server --bind-addr 0.0.0.0:8080 --auth none", "kubectl port-forward svc/postgres 5432:5432 -n prod --address 0.0.0.0", "ssh -N -R 0.0.0.0:9000:localhost:22 user@vps.example.net",
				"redis-server --bind 0.0.0.0 --protected-mode no", "oc port-forward pod/db 5432 --address=0.0.0.0"},
			Allow: []string{"jupyter lab --no-browser", "jupyter lab --ip 0.0.0.0 --no-browser", "code-server --bind-addr 127.0.0.1:8080 --auth none", "kubectl port-forward svc/postgres 5432:5432 -n prod",
				"ssh -N -R 9000:localhost:22 user@vps.example.net", "ssh -L 8080:localhost:80 host", "redis-server --port 6380", "kubectl port-forward svc/web 8080:80 --address 127.0.0.1"},
		},
		cmdRule("external.systems:open-to-world", Deny, "A firewall, security-group or authorized-network rule opened to every address (0.0.0.0/0, ::/0) through a cloud or firewall CLI (hcloud firewall add-rule --source-ips 0.0.0.0/0, gcloud sql instances patch --authorized-networks=0.0.0.0/0, aws ec2 authorize-security-group-ingress --cidr 0.0.0.0/0)", netRangeOpeners,
			func(e *Env, c *Cmd) string {
				if onlyHelp(c) {
					return ""
				}
				for _, w := range wordsOf(strings.Join(c.Pos[:min(3, len(c.Pos))], " ")) {
					if opsList("read-verb")[w] || w == "delete" || w == "revoke" || w == "remove" || w == "deny" || w == "reject" {
						return "" // reading rules, or taking an opening away
					}
				}
				for _, a := range c.Args {
					if worldCIDR(a) {
						return c.Name + " opens access to every address on the internet: " + c.String()
					}
				}
				if (anyPos(c, "0.0.0.0") || hasPrefixArg(c, "--start-ip-address=0.0.0.0")) && (anyPos(c, "255.255.255.255") || hasPrefixArg(c, "--end-ip-address=255.255.255.255")) {
					return c.Name + " opens access to every address from 0.0.0.0 to 255.255.255.255: " + c.String()
				}
				return ""
			},
			[]string{"hcloud firewall add-rule fw-db --direction in --protocol tcp --port 5432 --source-ips 0.0.0.0/0 --source-ips ::/0", "gcloud sql instances patch prod-pg --authorized-networks=0.0.0.0/0 --quiet",
				"aws ec2 authorize-security-group-ingress --group-id sg-1 --protocol tcp --port 22 --cidr 0.0.0.0/0", "doctl compute firewall add-rules fw1 --inbound-rules protocol:tcp,ports:5432,address:0.0.0.0/0",
				"gcloud compute firewall-rules create allow-db --allow tcp:5432 --source-ranges 0.0.0.0/0", "openstack security group rule create --remote-ip 0.0.0.0/0 --dst-port 3306 default"},
			[]string{"hcloud firewall add-rule fw-db --direction in --protocol tcp --port 5432 --source-ips 10.0.0.0/8", "gcloud sql instances patch prod-pg --authorized-networks=203.0.113.4/32",
				"aws ec2 revoke-security-group-ingress --group-id sg-1 --protocol tcp --port 22 --cidr 0.0.0.0/0", "aws ec2 describe-security-groups --filters Name=ip-permission.cidr,Values=0.0.0.0/0", "hcloud firewall describe fw-db", "az sql server firewall-rule create -g rg -s srv -n azure --start-ip-address 0.0.0.0 --end-ip-address 0.0.0.0"}),
	}
}
