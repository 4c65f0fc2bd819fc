#!/usr/bin/env python3
"""The smallest external agent (standard library only): it answers the first candidate it is shown.

``taskverse eval --tasks "craft stick" --agent cmd:"python examples/agents/first_candidate.py"``. A template
for agents in any language: read one JSON observation per line, write one answer per line, flush.
"""

import json
import sys

for line in sys.stdin:
    observation = json.loads(line)
    if observation.get("type") != "observation":
        continue  # other message types may be added: skip what you do not know
    print(observation["candidates"][0]["index"], flush=True)
