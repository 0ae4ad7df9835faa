package policy

import "strings"

// Shared layers of a data lake. A copy into storage is the
// copier's own unless the bucket's name says others read it
// (sharedBucket) — or the path below it does: the medallion gold layer,
// curated or published data, marts, a prod folder
// (dbfs:/mnt/datalake/gold/churn_scores, gs://lake/curated/x). A tree
// copied there, or a file copied over what is there, replaces data
// others' jobs and dashboards read (external.systems:copy-off-machine,
// ask). The words are data (remoteops.txt shared-layer-words).

// sharedLayer: a folder of dst below its bucket or scheme names a shared
// layer.
func sharedLayer(dst string) bool {
	p := dst
	if i := strings.Index(p, "://"); i >= 0 {
		p = p[i+3:]
		if j := strings.IndexByte(p, '/'); j >= 0 {
			p = p[j:] // below the bucket: its name is sharedBucket's
		} else {
			return false
		}
	} else if i := strings.IndexByte(p, ':'); i >= 0 {
		p = p[i+1:] // dbfs:/mnt/…, remote:path
	}
	return segmentHasWord(p, "shared-layer-words")
}
