package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Raw data is what a project's every result is computed from: sequencing
// reads, instrument output, a survey's answers, a scrape that cannot be
// repeated. It sits in the project like any other file, and no zone tells
// it apart, but the directory it is kept in says so (data/raw/,
// raw_data/). Deleting in it asks, however the line names the files (a
// loop, a glob, find -delete); processed and interim data stay routine.

// rawDataDirs name directories that keep raw data.
var rawDataDirs = map[string]bool{"raw": true, "raw_data": true, "raw-data": true, "rawdata": true, "source_data": true, "primary_data": true,
	"original_data": true, "originals": true, "raw_reads": true, "fastq_raw": true, "00_raw": true, "0_raw": true, "01_raw": true}

// inRawData reports whether p is in a raw-data directory below the
// project (or is one, when whole reports the directory itself counts).
func inRawData(p, project string, whole bool) bool {
	rel, ok := strings.CutPrefix(p, project+"/")
	if !ok {
		return false
	}
	parts := strings.Split(rel, "/")
	for i, part := range parts {
		if rawDataDirs[strings.ToLower(part)] && (i < len(parts)-1 || whole) {
			return true
		}
	}
	return false
}

func rawDataRule() Rule {
	return Rule{ID: "core.zones:raw-data-delete", Mode: Ask, Tools: shellTools,
		Desc: "Deleting or emptying files in the project's raw data (data/raw/, raw_data/ …): every result is computed from them and they often cannot be fetched or measured again; processed, interim and output data stay routine",
		Match: func(e *Env) string {
			if e.F.Project == "" || !strings.Contains(e.F.Command, "raw") && !strings.Contains(e.F.Command, "_data") && !strings.Contains(e.F.Command, "original") {
				return "" // every raw-data directory's name holds one of these
			}
			for _, tc := range e.Touches() {
				switch tc.Effect {
				case callfacts.PathDelete, callfacts.PathRecursiveDelete, callfacts.PathTruncate:
				default:
					continue
				}
				if emptyDirRemoval(tc.Via) {
					continue // rmdir fails on a directory that holds anything: no data is lost
				}
				if inRawData(tc.Path, e.F.Project, tc.Effect == callfacts.PathRecursiveDelete) && !movedWithin(e, tc) {
					return tc.Via + " deletes " + homeRel(tc.Path, e.F.Home) + ", raw data every result is computed from"
				}
			}
			if finderDeletes(e.F) {
				for _, c := range e.F.Cmds("find", "fd", "fdfind") {
					starts, _ := finderSelection(c)
					for _, s := range starts {
						if p := e.abs(c, s); inRawData(p, e.F.Project, true) {
							return c.Name + " deletes files under " + homeRel(p, e.F.Home) + ", raw data every result is computed from"
						}
					}
				}
			}
			return ""
		},
		Catch: []string{"for f in data/raw/*.fastq.gz; do rm -- \"$f\"; done", "rm -rf data/raw", "find data/raw -name '*.fastq.gz' -delete", "rm raw_data/survey_2023.csv",
			"git rm -r --cached data/raw && rm -rf data/raw/batch1", "python -c \"import shutil; shutil.rmtree('data/raw')\"", "truncate -s 0 data/raw/instrument.log"},
		Allow: []string{"rm -rf data/interim", "rm data/processed/*.parquet", "ls data/raw", "rm data/raw.csv.tmp", "fastqc -o qc/ data/raw/*.fastq.gz", "rm -rf results/raw_counts_cache.tmp", "rm -rf /tmp/raw"}}
}

// workflowOutputsRule: a workflow tool told to delete every output it
// ever produced (snakemake --delete-all-output, nextflow clean without
// -n, dvc gc): days of computation gone at once.
func workflowOutputsRule() Rule {
	return cmdRule("core.zones:workflow-outputs", Ask, "A workflow tool deleting every output it produced (snakemake --delete-all-output, nextflow clean -f with no run named, dvc gc --workspace): days of computation gone at once", []string{"snakemake", "nextflow"},
		func(e *Env, c *Cmd) string {
			switch c.Name {
			case "snakemake":
				if c.Has("--delete-all-output") && !c.Has("-n", "--dry-run", "--dryrun") {
					return "snakemake deletes every output the workflow produced: " + c.String()
				}
			case "nextflow":
				if c.Sub(0) == "clean" && c.Has("-f", "-force") && !c.Has("-n", "-dry-run", "-k", "-keep-logs", "-before", "-but", "-after") && len(c.Pos) == 1 {
					return "nextflow clean -f deletes the work of every past run: " + c.String()
				}
			}
			return ""
		},
		[]string{"snakemake --delete-all-output --cores 1", "snakemake -j1 --delete-all-output all", "nextflow clean -f"},
		[]string{"snakemake --delete-temp-output --cores 1", "snakemake --delete-all-output -n", "snakemake --cores 16 --use-conda", "nextflow clean -n", "nextflow clean -f -k -before golden_curie", "nextflow clean -f elegant_turing"})
}

// emptyDirRemoval: the delete is rmdir's (GNU, BSD, busybox), which
// removes only empty directories (-p its empty parents too) and fails
// on any that holds a file.
func emptyDirRemoval(via string) bool {
	return strings.HasPrefix(via, "rmdir ")
}

// movedWithin reports whether a touch is mv moving files to another
// place in the project (data/raw/x → data/raw/archive/): nothing is lost.
func movedWithin(e *Env, tc callfacts.Touch) bool {
	if !strings.HasPrefix(tc.Via, "mv") {
		return false
	}
	for _, c := range e.F.Cmds("mv") {
		if n := len(c.Pos); n >= 2 && under(e.abs(c, c.Pos[n-1]), e.F.Project) {
			return true
		}
	}
	return false
}

// unsafeLoad matches a deserializer that runs code from the file it
// reads: pickle and its kin by nature, torch, numpy and yaml when told to
// (weights_only=False, allow_pickle=True, an unsafe yaml Loader).
var unsafeLoad = re(`\b(?:pickle|cPickle|dill|cloudpickle|joblib|marshal|_pickle)\.loads?\s*\(|\bread_pickle\s*\(|torch\.load\s*\((?:[^()]|\([^()]*\))*weights_only\s*=\s*False|\bload\s*\((?:[^()]|\([^()]*\))*allow_pickle\s*=\s*True|yaml\.(?:unsafe_load|load)\s*\((?:[^()]|\([^()]*\))*(?:Unsafe|Full)?Loader\s*=\s*(?:yaml\.)?(?:Unsafe|Full)?Loader\b|yaml\.unsafe_load\s*\(|load_model\s*\((?:[^()]|\([^()]*\))*safe_mode\s*=\s*False`)

// foreignPlace names where a file the code loads came from when that is
// not the project's own making: a download, a scratch directory, another
// place in home, the network.
func foreignPlace(e *Env, code string) string {
	for _, lit := range callfacts.Literals(code) {
		l := strings.ToLower(lit)
		if strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "s3://") || strings.HasPrefix(l, "hf://") {
			return lit
		}
		if !callfacts.PathLike(lit) || strings.ContainsAny(lit, " \n") {
			continue
		}
		for _, part := range strings.Split(l, "/") {
			switch part {
			case "downloads", "download", "incoming", "untrusted", "uploads", "inbox", "third_party", "external", "from_forum", "attachments":
				return lit
			}
		}
		p := callfacts.NormPath(lit, e.F.Cwd, e.F.Home)
		switch callfacts.ZoneOf(p, e.F.Home, e.F.Project) {
		case callfacts.ZoneTemp, callfacts.ZoneHomeData, callfacts.ZoneElsewhere, callfacts.ZoneShared:
			return lit
		}
	}
	return ""
}

// unsafeLoadRule: code that deserializes a file it did not make, with a
// loader that runs the code the file carries (a pickle, torch.load with
// weights_only=False): whoever made the file runs code on this machine.
func unsafeLoadRule() Rule {
	names := []string{"python", "python3", "ipython", "ipython3", "pypy", "pypy3", "python3.9", "python3.10", "python3.11", "python3.12", "python3.13"}
	return cmdRule("core.zones:unsafe-load", Ask, "Deserializing, with a loader that runs the code the file carries (pickle.load, joblib.load, torch.load(weights_only=False), np.load(allow_pickle=True), yaml.load with an unsafe Loader), a file from a download, a scratch directory or the network: whoever made the file runs code here", names,
		func(e *Env, c *Cmd) string {
			if c.Payload == "" || !unsafeLoad.MatchString(c.Payload) {
				return ""
			}
			if src := foreignPlace(e, c.Payload); src != "" {
				return c.Name + " loads " + src + " with a loader that runs the code inside it (" + unsafeLoad.FindString(c.Payload) + ")"
			}
			return ""
		},
		[]string{"uv run python -c \"import torch; m = torch.load('downloads/model_from_forum.pt', weights_only=False)\"", "python -c \"import pickle; pickle.load(open('/tmp/payload.pkl','rb'))\"",
			"python3 -c \"import joblib; joblib.load('/home/dev/Downloads/clf.joblib')\"", "python -c \"import numpy as np; np.load('incoming/arr.npy', allow_pickle=True)\"",
			"python -c \"import pandas as pd; pd.read_pickle('https://files.example/df.pkl')\""},
		[]string{"python -c \"import torch; torch.load('checkpoints/last.pt', weights_only=False)\"", "python -c \"import torch; torch.load('downloads/model.pt')\"",
			"python -c \"import pickle; pickle.load(open('cache/features.pkl','rb'))\"", "python -c \"import numpy as np; np.load('/tmp/a.npy')\"", "python -c \"import yaml; yaml.safe_load(open('/tmp/c.yaml'))\""})
}
