#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Runs a weftcc script with one target module replaced:
#   run_with_module.py KIND MODULE_FILE WEFTCC [weftcc arguments...]
# KIND is cpu_image, nvidia_image or amd_image (targets.MODULES).
import importlib.util
import pathlib
import runpy
import sys

kind, module_file, script, *args = sys.argv[1:]
sys.path.insert(0, str(pathlib.Path(module_file).resolve().parent))
# The weftcc_lib package comes from where the script finds it; load it first.
config = runpy.run_path(script, run_name="weftcc_config")["CONFIG"]
lib = config["lib"]
here = pathlib.Path(script).resolve().parent
sys.path.insert(0, str(here if lib.startswith("@") else (here / lib).resolve()))
import weftcc_lib  # noqa: E402
spec = importlib.util.spec_from_file_location(f"weftcc_lib.{kind}", module_file)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
sys.modules[f"weftcc_lib.{kind}"] = module
sys.argv = [script, *args]
runpy.run_path(script, run_name="__main__")
