package policy

import "strings"

// A family of files a project's own run writes into its output folder:
// find exports -name 'roster_*.csv' -exec rm -f {} +. Tables and reports
// are often kept by hand (pack_find_data.go asks about them across the
// tree), but in a folder named for output (exports/, reports/,
// outputs/) a pattern that fixes a name's stem and leaves its stamp to a
// wildcard (roster_*.csv, invoice-2024-*.pdf) selects the run's
// products, written again by the next run: pruning them is the
// project's own housekeeping.

// outputDirNames name a project folder a run writes its products to.
var outputDirNames = map[string]bool{"exports": true, "export": true, "outputs": true, "output": true, "reports": true, "results": true}

// outputDataExts: kinds of file a run writes as its product.
var outputDataExts = map[string]bool{".csv": true, ".tsv": true, ".json": true, ".xml": true, ".txt": true, ".html": true, ".ndjson": true, ".jsonl": true}

// outputFamily: every start is an output folder of the project (a
// relative path whose first part is an output name), and the pattern b
// is a stem then a wildcard with a product's extension.
func outputFamily(starts []string, b, ext string) bool {
	if !outputDataExts[ext] || len(starts) == 0 {
		return false
	}
	for _, s := range starts {
		s = strings.TrimPrefix(s, "./")
		first, _, _ := strings.Cut(s, "/")
		if !outputDirNames[first] {
			return false
		}
	}
	stem, _, ok := strings.Cut(b, "*")
	return ok && len(strings.Trim(stem, "_-.")) >= 3 && !strings.ContainsAny(stem, "?[")
}
