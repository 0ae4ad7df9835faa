package policy

import "strings"

// A cloud CLI's operation that takes a JSON batch of changes (aws
// route53 change-resource-record-sets --change-batch, dynamodb
// batch-write-item --request-items, servicediscovery, …) deletes when
// an entry of the batch says so ("Action": "DELETE", "DeleteRequest"),
// whether the batch is written inline, fed on standard input
// (file:///dev/stdin <<EOF) or in a file the line wrote: the same
// delete as the CLI's delete verbs (cloud-delete).

// batchDeleteEntry: an entry of a JSON batch that deletes.
var batchDeleteEntry = re(`(?i)"(?:Action|Op|Operation|ChangeType)"\s*:\s*"(?:DELETE|REMOVE)"|"DeleteRequest"\s*:`)

func batchDeleteRule() Rule {
	return cmdRule("external.systems:cloud-batch-delete", Deny, "A cloud CLI's batch of changes whose entries delete (aws route53 change-resource-record-sets with \"Action\": \"DELETE\", dynamodb batch-write-item with DeleteRequest), inline, fed on standard input (file:///dev/stdin) or in a file the line wrote: the records are deleted as by the delete verbs; an emulator's endpoint stays allowed", []string{"aws", "awslocal"},
		func(e *Env, c *Cmd) string {
			if c.Name == "awslocal" || localEndpoint(e, c) || onlyHelp(c) || c.Has("--dry-run", "--generate-cli-skeleton") {
				return ""
			}
			doc := c.Heredoc
			for _, a := range c.Args {
				if strings.Contains(a, "{") {
					doc += "\n" + a
				}
			}
			if !strings.Contains(doc, "\"") || !batchDeleteEntry.MatchString(doc) {
				return ""
			}
			return c.Name + " deletes cloud resources by the entries of its change batch: " + c.String()
		},
		[]string{"aws route53 change-resource-record-sets --hosted-zone-id Z1ABC --change-batch file:///dev/stdin <<'EOF'\n{\"Changes\":[{\"Action\":\"DELETE\",\"ResourceRecordSet\":{\"Name\":\"api.acme.io.\",\"Type\":\"A\"}}]}\nEOF",
			`aws dynamodb batch-write-item --request-items '{"Orders":[{"DeleteRequest":{"Key":{"id":{"S":"1"}}}}]}'`,
			`echo '{"Changes":[{"Action":"DELETE","ResourceRecordSet":{"Name":"shop.acme.io.","Type":"CNAME"}}]}' | aws route53 change-resource-record-sets --hosted-zone-id Z9 --change-batch file:///dev/stdin`},
		[]string{"aws route53 change-resource-record-sets --hosted-zone-id Z1ABC --change-batch file:///dev/stdin <<'EOF'\n{\"Changes\":[{\"Action\":\"UPSERT\",\"ResourceRecordSet\":{\"Name\":\"api.acme.io.\",\"Type\":\"A\"}}]}\nEOF",
			`aws dynamodb batch-write-item --request-items '{"Orders":[{"PutRequest":{"Item":{"id":{"S":"1"}}}}]}'`,
			`aws route53 list-resource-record-sets --hosted-zone-id Z1ABC`})
}
