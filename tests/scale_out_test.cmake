# Checks the scale-out examples in examples/scale-out/ (docs/scale-out.md): their YAML parses, the
# shard count is the same everywhere it appears (Kubernetes' completions and the merge's shard list;
# each workflow's matrix, SHARDS and merge), and every option they pass to `omnilink campaign`,
# `omnilink sweep` and `omnilink merge` is one those verbs accept. Without python3 and PyYAML the
# YAML is SKIPPED.
set(dir "${SOURCE_DIR}/examples/scale-out")
include("${CMAKE_CURRENT_LIST_DIR}/example_checks.cmake")
omnilink_help(campaign campaign_help)
omnilink_help(merge merge_help)
omnilink_help(sweep sweep_help)
check_cli_options("${dir}/github-matrix-campaign.yml" campaign "${campaign_help}")
check_cli_options("${dir}/github-matrix-campaign.yml" merge "${merge_help}")
check_cli_options("${dir}/github-matrix-sweep.yml" sweep "${sweep_help}")
check_cli_options("${dir}/github-matrix-sweep.yml" merge "${merge_help}")
# The Kubernetes manifest passes arguments as YAML lists: every option in it is one of campaign's.
file(READ "${dir}/kubernetes-indexed-job.yaml" manifest)
string(REGEX MATCHALL "\"--[a-z-]+\"" options "${manifest}")
if(NOT options)
  message(FATAL_ERROR "kubernetes-indexed-job.yaml: no omnilink option")
endif()
string(REPLACE "\"" "" options "${options}")
check_known_options("kubernetes-indexed-job.yaml" campaign "${campaign_help}" ${options})

find_python3_yaml()
if(NOT PYTHON3_YAML)
  message("SKIPPED: python3 with PyYAML not found; the examples' YAML is not checked")
  return()
endif()
set(check [=[
import sys, yaml
shards, merge = yaml.safe_load_all(open(sys.argv[1]))
spec = shards['spec']
assert shards['kind'] == 'Job' and spec['completionMode'] == 'Indexed', 'not an Indexed Job'
n = spec['completions']
args = spec['template']['spec']['containers'][0]['args']
assert args[0] == 'campaign' and args[args.index('--shard') + 1] == '$(JOB_COMPLETION_INDEX)/%d' % n, 'the shard is not INDEX/completions'
merged = merge['spec']['template']['spec']['containers'][0]['args']
assert merged[0] == 'merge' and len(merged) == 2 + n, 'the merge does not name every shard'
for workflow in sys.argv[2:]:
    w = yaml.safe_load(open(workflow))
    matrix = w['jobs']['shard']['strategy']['matrix']['shard']
    assert matrix == list(range(int(w['env']['SHARDS']))), workflow + ': the matrix is not 0..SHARDS-1'
    assert 'needs' in w['jobs']['merge'] and w['jobs']['merge']['needs'] == 'shard', workflow + ': the merge does not wait for the shards'
    merge_line = [s['run'] for s in w['jobs']['merge']['steps'] if s.get('name') == 'Merge'][0]
    assert merge_line.split()[3:] == ['shard-%d' % i for i in matrix], workflow + ': the merge does not name every shard'
]=])
execute_process(COMMAND "${PYTHON3_YAML}" -c "${check}" "${dir}/kubernetes-indexed-job.yaml" "${dir}/github-matrix-campaign.yml"
                        "${dir}/github-matrix-sweep.yml"
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "scale-out examples: ${err}")
endif()
