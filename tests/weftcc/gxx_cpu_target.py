# SPDX-License-Identifier: MIT
"""A target module for weftcc's pipeline tests: builds the x86_64 image with g++ as a
CPU code object (<hip/weft/cpu_code_object.h>; the source lists its kernels with
WEFTCC_TEST_KERNEL under -DWEFTCC_TEST_CPU_OBJECT). It stands in for cpu_image.py so
that the steps around the device step (bundle, host pass, link, registration, launch)
are tested on their own; the product's x86_64 step is cpu_image.py."""
import pathlib

from weftcc_lib.targets import TargetError


def build(job):
    if job.target != "x86_64":
        raise TargetError(job.target, "the g++ test module builds x86_64 only")
    image = pathlib.Path(job.workdir) / "image.so"
    cmd = ["g++", "-x", "c++", "-shared", "-fPIC", "-Wl,-Bsymbolic", "-DWEFTCC_TEST_CPU_OBJECT", *job.common_flags(),
           f"-I{job.weft_include}", str(job.source), "-o", str(image)]
    job.run(cmd, "g++ (test CPU image)")
    return image
