#!/usr/bin/env python3
"""Writes the class of two-layer scenes whose windows cross an iteration's end (docs/reliability.md,
"Across frames"): a 40x40 layer under a 400x600 root moved by one animation. Basic position,
linear keyframe position and basic bounds.size.width; durations 0.3, 0.05, 1/120, 0.0166 and 0.7 s;
repeatCount infinity, 2 and 1.5; autoreversing or not; no timing function, easeInEaseOut or
linear; then begin times, offsets and fills that put an iteration end or the active period's end
inside a window, and the same with a spring and a path. Deterministic.

  python3 scripts/boundary_scenes.py DIR
"""
import json
import os
import sys


def basic(key_path, from_value, to_value, **timing):
    return {"type": "basic", "keyPath": key_path, "fromValue": from_value, "toValue": to_value, **timing}


def keyframes(key_path, values, **timing):
    return {"type": "keyframe", "keyPath": key_path, "values": values, **timing}


def variants():
    out = []
    for duration in [0.3, 0.05, 1 / 120, 0.0166, 0.7]:
        for repeat in ["infinity", 2, 1.5]:
            for autoreverses in [False, True]:
                for timing_function in [None, "easeInEaseOut", "linear"]:
                    timing = {"duration": duration, "repeatCount": repeat, "autoreverses": autoreverses}
                    if timing_function:
                        timing["timingFunction"] = timing_function
                    out.append(("pos-basic", basic("position", [0, 0], [300, 500], **timing)))
                    out.append(("pos-kf", keyframes("position", [[0, 0], [300, 500], [100, 50]], **timing)))
                    out.append(("w-basic", basic("bounds.size.width", 40, 300, **timing)))
    for begin, offset, fill in [(0.1, 0, "both"), (0.05, 0.13, "forwards"), (0, 0.2, "backwards"), (0.25, 0.07, "removed")]:
        timing = {"duration": 0.3, "repeatCount": 2, "beginTime": begin, "timeOffset": offset, "fillMode": fill}
        out.append(("pos-timed", basic("position", [0, 0], [300, 500], removedOnCompletion=False, **timing)))
        spring = {"type": "spring", "keyPath": "position", "fromValue": [0, 0], "toValue": [300, 500]}
        out.append(("spring", {**spring, **timing, "repeatCount": "infinity"}))
        path = {"type": "keyframe", "keyPath": "position", "path": [[0, 0], [300, 500], [100, 50]]}
        out.append(("path", {**path, **timing, "repeatCount": 3}))
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: python3 scripts/boundary_scenes.py DIR")
    directory = sys.argv[1]
    os.makedirs(directory, exist_ok=True)
    scenes = variants()
    for i, (name, animation) in enumerate(scenes):
        layer = {"name": "box", "bounds": [0, 0, 40, 40], "position": [0, 0], "animations": {"m": animation},
                 "sublayers": []}
        scene = {"hitbench": 1, "root": {"name": "root", "bounds": [0, 0, 400, 600], "position": [200, 300],
                                         "sublayers": [layer]}}
        with open(os.path.join(directory, f"{i:03d}-{name}.json"), "w") as f:
            json.dump(scene, f)
    print(len(scenes))


if __name__ == "__main__":
    main()
