package callfacts

import (
	"strings"

	"github.com/warden-dev/warden/internal/lazyre"
)

// A boto3 client's method is the aws CLI's operation of the same name:
// boto3.client('iot-data').update_thing_shadow(thingName='kiln-03', …)
// is `aws iot-data update-thing-shadow --thing-name kiln-03`, ec2's
// stop_instances is `aws ec2 stop-instances`, a paginator over
// list_objects_v2 is `aws s3api list-objects-v2`. boto3CLI spells each
// such call as that command line, with the literal keyword arguments as
// options and the client's profile and region, so the aws reading (its
// verbs, what is read and what changes, production and sandbox names)
// judges it as it judges the CLI, whatever the service: a new service is
// no new rule.

// boto3Client: a client made by boto3 or a boto3 session, with the
// variable it is bound to when there is one (c = boto3.client('s3', …),
// boto3.Session(profile_name='p').client('ssm')).
var boto3Client = lazyre.New(`(?:\b([A-Za-z_]\w*)\s*=\s*)?\b(?:boto3|[A-Za-z_]\w*|\))\s*\.\s*client\(\s*['"]([a-z0-9-]+)['"]`)

// boto3Kwarg: a keyword argument given a string literal (thingName='x').
var boto3Kwarg = lazyre.New(`\b([A-Za-z]\w*)\s*=\s*['"]([^'"\s]{1,120})['"]`)

// boto3Flag: a keyword argument set to True (DryRun=True).
var boto3Flag = lazyre.New(`\b([A-Z]\w*)\s*=\s*True\b`)

// boto3Method: a method called on a client (.update_thing_shadow(…)).
var boto3Method = lazyre.New(`^\s*\.\s*([a-z][a-z0-9_]*)\s*\(`)

// boto3Helpers are a client's own methods, no operation of the service.
var boto3Helpers = map[string]bool{"close": true, "can_paginate": true, "get_waiter": true, "generate_presigned_url": true,
	"generate_presigned_post": true, "get_paginator": true}

// boto3Paginate: a paginator of an operation (get_paginator('list_objects_v2')).
var boto3Paginate = lazyre.New(`^\s*\.\s*get_paginator\(\s*['"]([a-z][a-z0-9_]*)['"]`)

// boto3CLI is the aws command lines of code's boto3 client calls (at
// most four).
func boto3CLI(code string) []string {
	if !strings.Contains(code, "boto3") {
		return nil
	}
	var out []string
	globals := boto3Globals(code)
	add := func(svc, method, args string) {
		if len(out) >= 4 || boto3Helpers[method] {
			return
		}
		if svc == "s3" {
			svc = "s3api" // the operations are s3api's; aws s3 is the file tool
		}
		cmd := []string{"aws", svc, strings.ReplaceAll(method, "_", "-")}
		for _, m := range boto3Kwarg.FindAllStringSubmatch(args, 8) {
			if m[1] == "region_name" || m[1] == "profile_name" || m[1] == "endpoint_url" {
				continue
			}
			cmd = append(cmd, "--"+kebab(m[1]), m[2])
		}
		for _, m := range boto3Flag.FindAllStringSubmatch(args, 4) {
			cmd = append(cmd, "--"+kebab(m[1])) // DryRun=True is --dry-run, Force=True --force
		}
		out = append(out, argvCode(append(cmd, globals...)))
	}
	for _, ix := range boto3Client.FindAllStringSubmatchIndex(code, 4) {
		svc := code[ix[4]:ix[5]]
		end := matchParen(code, ix[1])
		if end >= len(code) {
			continue
		}
		// boto3.client('x').method(…): the call on the client itself
		if m := firstIndex(boto3Method, code[end+1:]); m != nil {
			open := end + 1 + m[1]
			add(svc, code[end+1+m[2]:end+1+m[3]], code[open:matchParen(code, open)])
		}
		if ix[2] < 0 {
			continue
		}
		// c = boto3.client('x'); c.method(…): the calls on its variable
		name := code[ix[2]:ix[3]]
		rest := code[end:]
		for at := 0; at < len(rest); {
			i := strings.Index(rest[at:], name+".")
			if i < 0 {
				break
			}
			i += at
			at = i + len(name) + 1
			if i > 0 && identByte(rest[i-1]) {
				continue
			}
			tail := rest[i+len(name):]
			if p := boto3Paginate.FindStringSubmatch(tail); p != nil {
				add(svc, p[1], "")
				continue
			}
			if m := firstIndex(boto3Method, tail); m != nil {
				open := i + len(name) + m[1]
				add(svc, tail[m[2]:m[3]], rest[open:matchParen(rest, open)])
			}
		}
	}
	return out
}

// boto3Globals are the aws options code's session or client names: the
// profile and the region.
func boto3Globals(code string) []string {
	var g []string
	for _, m := range boto3Kwarg.FindAllStringSubmatch(code, 16) {
		switch m[1] {
		case "profile_name":
			g = append(g, "--profile", m[2])
		case "region_name":
			g = append(g, "--region", m[2])
		case "endpoint_url":
			g = append(g, "--endpoint-url", m[2]) // LocalStack on localhost: this machine's
		default:
			continue
		}
		if len(g) >= 6 {
			break
		}
	}
	return g
}

// kebab spells a boto3 keyword (thingName, DBInstanceIdentifier,
// Bucket) as the CLI's option (thing-name, db-instance-identifier,
// bucket).
func kebab(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			// a new word starts at an upper case letter after a lower
			// one, or before a lower one after upper ones (DBInstance)
			if i > 0 && (s[i-1] >= 'a' && s[i-1] <= 'z' || s[i-1] >= '0' && s[i-1] <= '9' ||
				i+1 < len(s) && s[i+1] >= 'a' && s[i+1] <= 'z' && s[i-1] >= 'A' && s[i-1] <= 'Z') {
				b.WriteByte('-')
			}
			b.WriteByte(c + 'a' - 'A')
			continue
		}
		if c == '_' {
			c = '-'
		}
		b.WriteByte(c)
	}
	return b.String()
}

// firstIndex is the submatch index of re's first match in s, nil for none.
func firstIndex(re *lazyre.Regexp, s string) []int {
	if all := re.FindAllStringSubmatchIndex(s, 1); len(all) > 0 {
		return all[0]
	}
	return nil
}
