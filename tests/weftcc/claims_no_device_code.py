# SPDX-License-Identifier: MIT
"""An x86_64 module for weftcc_test.py (through run_with_module.py): it answers "no device
code" whenever weftcc lets it (job.image_optional) and builds weft's real CPU image
otherwise, so a test sees weftcc build the image again when the host pass registers
kernels after all (driver.compile_hip)."""
import importlib.util
import pathlib

import weftcc_lib
from weftcc_lib import targets

_spec = importlib.util.spec_from_file_location("weftcc_lib._real_cpu_image",
                                               pathlib.Path(weftcc_lib.__file__).parent / "cpu_image.py")
_real = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_real)


def build(job):
    if job.image_optional:
        return targets.no_device_code(job)
    return _real.build(job)
