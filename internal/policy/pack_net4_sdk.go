package policy

import (
	_ "embed"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

// sdkdeletes.txt: the cloud and ML-platform SDK calls that delete remote
// resources, by the word that shows the SDK is used.
//
//go:embed sdkdeletes.txt
var sdkDeletesText string

type sdkDelete struct {
	sdk   string
	calls []string
}

var sdkDeletes = sync.OnceValue(func() []sdkDelete {
	var out []sdkDelete
	datatable.Must("sdkdeletes.txt", sdkDeletesText, 2, func(l datatable.Line) error {
		out = append(out, sdkDelete{sdk: l.Fields[0], calls: l.Fields[1:]})
		return nil
	})
	return out
})

// sdkDeleteIn says which SDK call of code deletes a remote resource
// ("boto3 delete_bucket("), "" for none.
func sdkDeleteIn(code string) string {
	for _, s := range sdkDeletes() {
		if !strings.Contains(code, s.sdk) {
			continue
		}
		for _, c := range s.calls {
			if strings.Contains(code, c) {
				return s.sdk + " " + c
			}
		}
	}
	return ""
}

// net4SDKRule: an interpreter one-liner deleting through a cloud or ML
// platform's SDK (boto3, huggingface_hub, wandb, google.cloud, azure).
func net4SDKRule() Rule {
	return cmdRule("external.systems:sdk-delete", Deny, "An interpreter one-liner deleting remote resources through a cloud or ML platform's SDK (boto3 bucket.object_versions.delete(), huggingface_hub delete_repo, wandb runs' .delete(), google.cloud blob.delete(), azure delete_container); the SDKs and calls are data (policy/sdkdeletes.txt)",
		[]string{"python", "python3", "python2", "ipython", "node", "nodejs", "bun", "deno"},
		func(e *Env, c *Cmd) string {
			if c.Payload == "" {
				return ""
			}
			if s := sdkDeleteIn(c.Payload); s != "" {
				return c.Name + " deletes remote resources through an SDK (" + s + "): " + c.String()
			}
			return ""
		},
		[]string{"python3 -c \"import boto3; b=boto3.resource('s3').Bucket('logs'); b.object_versions.delete()\"", "python -c \"from huggingface_hub import delete_repo; delete_repo('acme/model')\"",
			"python -c \"import wandb; [r.delete() for r in wandb.Api().runs('acme/proj')]\"", "python3 -c \"import boto3; boto3.client('dynamodb').delete_table(TableName='orders')\"",
			"python -c \"from google.cloud import storage; [b.delete() for b in storage.Client().bucket('x').list_blobs()]\"", "node -e \"const {S3Client,DeleteBucketCommand}=require('@aws-sdk/client-s3'); new S3Client({}).send(new DeleteBucketCommand({Bucket:'x'}))\""},
		[]string{"python3 -c \"import boto3; print(boto3.client('s3').list_buckets())\"", "python -c \"from huggingface_hub import list_models; print(list(list_models(author='acme')))\"",
			"python -c \"import wandb; print(len(wandb.Api().runs('acme/proj')))\"", "python manage.py shell -c \"Session.objects.all().delete()\"", "python3 -c \"d={'a':1}; d.pop('a')\""})
}

// clusterSQLRunners submit SQL to a shared cluster or its metastore
// (Spark, Hive, Impala, Trino): a DROP or TRUNCATE in any of their
// arguments, a job's --sql option included, runs there.
var clusterSQLRunners = []string{"spark-submit", "spark-sql", "pyspark", "beeline", "hive", "impala-shell", "trino", "presto", "sql-client.sh"}

// net4ClusterSQLRule: DROP DATABASE/TABLE/SCHEMA or TRUNCATE handed to a
// cluster job or SQL shell, whatever option carries it.
func net4ClusterSQLRule() Rule {
	return cmdRule("external.systems:cluster-sql-drop", Deny, "DROP DATABASE/SCHEMA/TABLE or TRUNCATE handed to a cluster's job or SQL shell (spark-submit job.py --sql \"DROP DATABASE prod CASCADE\", spark-sql -e, beeline -e, hive -e): the shared metastore's data goes; a local Spark master is left alone",
		clusterSQLRunners,
		func(e *Env, c *Cmd) string {
			for i, a := range c.Args {
				if a == "--master" && i+1 < len(c.Args) && strings.HasPrefix(c.Args[i+1], "local") || strings.HasPrefix(a, "--master=local") {
					return "" // a Spark session on this machine
				}
			}
			if m := sqlDrop.FindString(strings.Join(c.Args, " ") + "\n" + c.Heredoc); m != "" {
				return c.Name + " runs " + strings.ToUpper(m) + " on the cluster: " + c.String()
			}
			return ""
		},
		[]string{"spark-submit --master yarn --deploy-mode cluster jobs/sql_runner.py --sql \"DROP DATABASE prod_features CASCADE\"", "spark-sql -e 'DROP TABLE warehouse.events'",
			"beeline -u jdbc:hive2://hs2:10000 -e 'TRUNCATE TABLE sales'", "hive -e 'drop schema staging cascade'", "impala-shell -i impalad:21000 -q 'DROP TABLE logs PURGE'"},
		[]string{"spark-submit --master yarn jobs/backfill.py --date 2024-06-01", "spark-submit --master local[4] jobs/sql_runner.py --sql 'DROP TABLE tmp'", "spark-sql -e 'SELECT count(*) FROM events'",
			"beeline -u jdbc:hive2://hs2:10000 -e 'SHOW TABLES'", "hive -e 'describe formatted sales'"})
}
