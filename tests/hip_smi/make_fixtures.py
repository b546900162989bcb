#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the hip-smi fixture trees under tests/data/hip_smi/.

Each tree is a small machine laid out the way the kernel lays out sysfs, procfs
and /dev (formats in ../shared/docs/device-interfaces-facts.md): relative
symlinks where the kernel uses symlinks, empty regular files standing in for
device nodes, whose modes and owners live in hip-smi-fixture.conf because the
tests run as root. The values are invented but plausible; nothing here was
captured on real hardware. /proc/cpuinfo holds the first two processors only
(hip-smi reads just the first block).

Run it after changing a fixture, then `meson test --suite hip_smi` with
HIP_SMI_UPDATE_GOLDEN=1 to refresh the golden files, and review the diff.
"""
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "data", "hip_smi")

GIB = 1 << 30
MIB = 1 << 20


class Tree:
    def __init__(self, name):
        self.root = os.path.join(OUT, name)
        if os.path.exists(self.root):
            shutil.rmtree(self.root)
        os.makedirs(self.root)

    def path(self, rel):
        return os.path.join(self.root, rel.lstrip("/"))

    def write(self, rel, text=""):
        p = self.path(rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write(text)

    def write_bytes(self, rel, data):
        p = self.path(rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)

    def mkdir(self, rel):
        os.makedirs(self.path(rel), exist_ok=True)

    def link(self, rel, target):
        """A symlink at `rel` whose text is `target` (relative, as the kernel writes them)."""
        p = self.path(rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        os.symlink(target, p)

    def link_abs(self, rel, target_rel):
        """A relative symlink at `rel` pointing to tree path `target_rel`."""
        src_dir = os.path.dirname(self.path(rel))
        self.link(rel, os.path.relpath(self.path(target_rel), src_dir))


def props(pairs):
    return "".join(f"{k} {v}\n" for k, v in pairs)


# ---- host pieces ----------------------------------------------------------------

def host(t, hostname, kernel, cpu, numa, mem_total, mem_avail, stat, loadavg, k10temp=None,
         cur_khz=None, max_khz=None):
    t.write("/proc/sys/kernel/hostname", hostname + "\n")
    t.write("/proc/sys/kernel/osrelease", kernel + "\n")
    t.write("/proc/version", f"Linux version {kernel} (fixture) #1 SMP PREEMPT_DYNAMIC\n")
    blocks = []
    for n in range(2):
        blocks.append(
            f"processor\t: {n}\nvendor_id\t: {cpu['vendor_id']}\ncpu family\t: {cpu['family']}\n"
            f"model\t\t: {cpu['model']}\nmodel name\t: {cpu['name']}\nstepping\t: {cpu['stepping']}\n"
            f"cpu MHz\t\t: {cpu['mhz']}\ncache size\t: {cpu['cache']}\nphysical id\t: 0\n"
            f"siblings\t: {cpu['threads_per_socket']}\ncore id\t\t: {n}\n"
            f"cpu cores\t: {cpu['cores_per_socket']}\nflags\t\t: fpu vme de pse tsc msr pae mce cx8 apic lm\n\n")
    t.write("/proc/cpuinfo", "".join(blocks))
    logical = cpu["threads_per_socket"] * cpu["sockets"]
    t.write("/sys/devices/system/cpu/online", f"0-{logical - 1}\n")
    t.write("/sys/devices/system/cpu/possible", f"0-{logical - 1}\n")
    t.write("/sys/devices/system/cpu/present", f"0-{logical - 1}\n")
    cores = cpu["cores_per_socket"] * cpu["sockets"]
    smt = logical // cores
    siblings = "0" if smt == 1 else f"0,{cores}"
    t.write("/sys/devices/system/cpu/cpu0/topology/thread_siblings_list", siblings + "\n")
    t.write("/sys/devices/system/cpu/cpu0/topology/core_cpus_list", siblings + "\n")
    t.write("/sys/devices/system/cpu/cpu0/topology/package_cpus_list", numa[0]["cpus"] + "\n")
    t.write("/sys/devices/system/cpu/cpu0/topology/physical_package_id", "0\n")
    if cur_khz:
        t.write("/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", f"{cur_khz}\n")
        t.write("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", f"{max_khz}\n")
    online = f"0-{len(numa) - 1}" if len(numa) > 1 else "0"
    for f in ("online", "possible", "has_cpu", "has_memory", "has_normal_memory"):
        t.write(f"/sys/devices/system/node/{f}", online + "\n")
    for n in numa:
        d = f"/sys/devices/system/node/node{n['id']}"
        t.write(d + "/cpulist", n["cpus"] + "\n")
        t.write(d + "/distance", " ".join(str(x) for x in n["distance"]) + "\n")
        total_kb, free_kb = n["mem_total"] // 1024, n["mem_free"] // 1024
        t.write(d + "/meminfo",
                f"Node {n['id']} MemTotal:       {total_kb:>10} kB\n"
                f"Node {n['id']} MemFree:        {free_kb:>10} kB\n"
                f"Node {n['id']} MemUsed:        {total_kb - free_kb:>10} kB\n")
    t.write("/proc/meminfo",
            f"MemTotal:       {mem_total // 1024:>10} kB\n"
            f"MemFree:        {mem_avail // 1024 // 2:>10} kB\n"
            f"MemAvailable:   {mem_avail // 1024:>10} kB\n"
            f"Buffers:        {204800:>10} kB\n"
            f"Cached:         {mem_avail // 1024 // 3:>10} kB\n"
            f"SwapTotal:      {8388604:>10} kB\n"
            f"SwapFree:       {8388604:>10} kB\n"
            f"HugePages_Total:       0\n"
            f"Hugepagesize:       2048 kB\n")
    user, nice, system, idle, iowait = stat
    lines = [f"cpu  {user} {nice} {system} {idle} {iowait} 0 {system // 50} 0 0 0\n"]
    for n in range(min(logical, 4)):
        lines.append(f"cpu{n} {user // logical} {nice // logical} {system // logical} {idle // logical} "
                     f"{iowait // logical} 0 0 0 0 0\n")
    lines.append("intr 123456789 0 0\nctxt 987654321\nbtime 1767225600\nprocesses 424242\n"
                 "procs_running 3\nprocs_blocked 0\n")
    t.write("/proc/stat", "".join(lines))
    t.write("/proc/loadavg", loadavg + "\n")
    if k10temp is not None:
        d = "/sys/devices/pci0000:00/0000:00:18.3/hwmon/hwmon0"
        t.write(d + "/name", "k10temp\n")
        t.write(d + "/temp1_input", f"{k10temp}\n")
        t.write(d + "/temp1_label", "Tctl\n")
        t.link_abs("/sys/class/hwmon/hwmon0", d)
    t.write("/proc/self/limits",
            "Limit                     Soft Limit           Hard Limit           Units     \n"
            "Max cpu time              unlimited            unlimited            seconds   \n"
            "Max open files            1024                 1048576              files     \n"
            f"Max locked memory         {cpu.get('memlock', 'unlimited'):<21}{cpu.get('memlock', 'unlimited'):<21}bytes     \n")


def module(t, name, version=None):
    t.write(f"/sys/module/{name}/initstate", "live\n")
    if version:
        t.write(f"/sys/module/{name}/version", version + "\n")


def pci_device(t, bdf, vendor, device, revision, cls, driver=None, numa=-1, port="0000:00:01.1",
               link=None):
    """A PCI function: the device folder under /sys/devices plus the /sys/bus/pci/devices link."""
    d = f"/sys/devices/pci{bdf[:4]}:{port[5:7]}/{port}/{bdf}"
    t.write(d + "/vendor", f"0x{vendor:04x}\n")
    t.write(d + "/device", f"0x{device:04x}\n")
    t.write(d + "/revision", f"0x{revision:02x}\n")
    t.write(d + "/class", f"0x{cls:06x}\n")
    t.write(d + "/numa_node", f"{numa}\n")
    t.write(d + "/power/runtime_status", "active\n")
    if link:
        t.write(d + "/current_link_speed", f"{link[0]} GT/s PCIe\n")
        t.write(d + "/current_link_width", f"{link[1]}\n")
        t.write(d + "/max_link_speed", f"{link[2]} GT/s PCIe\n")
        t.write(d + "/max_link_width", f"{link[3]}\n")
    if driver:
        t.mkdir(f"/sys/bus/pci/drivers/{driver}")
        t.link_abs(d + "/driver", f"/sys/bus/pci/drivers/{driver}")
    t.link_abs(f"/sys/bus/pci/devices/{bdf}", d)
    return d


def other_pci(t):
    """Devices hip-smi must skip: host bridge, NVMe, HD audio."""
    pci_device(t, "0000:00:00.0", 0x1022, 0x14d8, 0, 0x060000, port="0000:00:00.0")
    pci_device(t, "0000:04:00.0", 0x144d, 0xa80a, 0, 0x010802, driver="nvme", port="0000:00:02.1")


def amdgpu_sysfs(t, d, card, minor, g):
    """amdgpu's attributes, DRM nodes and hwmon for the PCI device folder d."""
    t.write(d + "/gpu_busy_percent", f"{g['busy']}\n")
    if "mem_busy" in g:
        t.write(d + "/mem_busy_percent", f"{g['mem_busy']}\n")
    t.write(d + "/mem_info_vram_total", f"{g['vram_total']}\n")
    t.write(d + "/mem_info_vram_used", f"{g['vram_used']}\n")
    t.write(d + "/mem_info_vis_vram_total", f"{g['vram_total']}\n")
    t.write(d + "/mem_info_vis_vram_used", f"{g['vram_used']}\n")
    t.write(d + "/mem_info_gtt_total", f"{g['gtt_total']}\n")
    t.write(d + "/mem_info_gtt_used", f"{g['gtt_used']}\n")
    t.write(d + "/mem_info_vram_vendor", g.get("vram_vendor", "samsung") + "\n")
    t.write(d + "/pp_dpm_sclk", g["sclk"])
    t.write(d + "/pp_dpm_mclk", g["mclk"])
    t.write(d + "/power_dpm_force_performance_level", g.get("perf", "auto") + "\n")
    t.write(d + "/vbios_version", g["vbios"] + "\n")
    if "product_name" in g:
        t.write(d + "/product_name", g["product_name"] + "\n")
    if "unique_id" in g:
        t.write(d + "/unique_id", f"{g['unique_id']:x}\n")
    for name, m in (("card", card), ("renderD", minor)):
        node = f"{d}/drm/{name}{m}"
        t.write(node + "/dev", f"226:{m}\n")
        t.link(node + "/device", "../../../" + os.path.basename(d))
        t.link_abs(f"/sys/class/drm/{name}{m}", node)
    hw = f"{d}/hwmon/hwmon{g['hwmon']}"
    t.write(hw + "/name", "amdgpu\n")
    for k, (label, milli) in enumerate(g["temps"], start=1):
        if milli is None:
            continue
        t.write(hw + f"/temp{k}_input", f"{milli}\n")
        t.write(hw + f"/temp{k}_label", label + "\n")
        t.write(hw + f"/temp{k}_crit", "100000\n")
    for key in ("power1_average", "power1_input", "power1_cap", "power1_cap_max", "fan1_input", "pwm1",
                "freq1_input", "freq2_input"):
        if key in g:
            t.write(hw + "/" + key, f"{g[key]}\n")
    t.link_abs(f"/sys/class/hwmon/hwmon{g['hwmon']}", hw)


def kfd_gpu_props(g, location_id, minor):
    return props([
        ("cpu_cores_count", 0), ("simd_count", g["simd_count"]), ("mem_banks_count", 1),
        ("caches_count", g.get("caches", 0)), ("io_links_count", len(g["io_links"])), ("p2p_links_count", 0),
        ("cpu_core_id_base", 0), ("simd_id_base", g["simd_id_base"]), ("max_waves_per_simd", g.get("waves", 16)),
        ("lds_size_in_kb", 64), ("gds_size_in_kb", 0), ("num_gws", 64 if g.get("gws") else 0),
        ("wave_front_size", g["wave"]), ("array_count", g["arrays"]), ("simd_arrays_per_engine", g["sa_per_se"]),
        ("cu_per_simd_array", g["cu_per_sa"]), ("simd_per_cu", g["simd_per_cu"]), ("max_slots_scratch_cu", 32),
        ("gfx_target_version", g["gfx"]), ("vendor_id", 4098), ("device_id", g["device"]),
        ("location_id", location_id), ("domain", 0), ("drm_render_minor", minor), ("hive_id", g.get("hive", 0)),
        ("num_sdma_engines", 2), ("num_sdma_xgmi_engines", g.get("xgmi_sdma", 0)), ("num_sdma_queues_per_engine", 8),
        ("num_cp_queues", 32), ("max_engine_clk_fcompute", g["max_sclk"]), ("local_mem_size", 0),
        ("fw_version", g.get("fw", 150)), ("capability", g.get("capability", 0x28300080)), ("debug_prop", 1495),
        ("sdma_fw_version", 20), ("unique_id", g.get("unique_id", 0))] +
        ([("num_xcc", g["xcc"])] if "xcc" in g else []) +
        [("max_engine_clk_ccompute", g.get("cpu_clk", 3700))])


def kfd_cpu_node(t, n, cores, core_base, mem_bytes, io_links, cpu_clk):
    d = f"/sys/class/kfd/kfd/topology/nodes/{n}"
    t.write(d + "/gpu_id", "0\n")
    t.write(d + "/name", "\n")
    t.write(d + "/properties", props([
        ("cpu_cores_count", cores), ("simd_count", 0), ("mem_banks_count", 1), ("caches_count", 0),
        ("io_links_count", len(io_links)), ("p2p_links_count", 0), ("cpu_core_id_base", core_base),
        ("simd_id_base", 0), ("max_waves_per_simd", 0), ("lds_size_in_kb", 0), ("gds_size_in_kb", 0),
        ("num_gws", 0), ("wave_front_size", 0), ("array_count", 0), ("simd_arrays_per_engine", 0),
        ("cu_per_simd_array", 0), ("simd_per_cu", 0), ("max_slots_scratch_cu", 0), ("gfx_target_version", 0),
        ("vendor_id", 0), ("device_id", 0), ("location_id", 0), ("domain", 0), ("drm_render_minor", 0),
        ("hive_id", 0), ("num_sdma_engines", 0), ("num_sdma_xgmi_engines", 0), ("num_sdma_queues_per_engine", 0),
        ("num_cp_queues", 0), ("max_engine_clk_fcompute", 0), ("local_mem_size", 0), ("fw_version", 0),
        ("capability", 0), ("debug_prop", 0), ("sdma_fw_version", 0), ("unique_id", 0),
        ("max_engine_clk_ccompute", cpu_clk)]))
    t.write(d + "/mem_banks/0/properties", props([
        ("heap_type", 0), ("size_in_bytes", mem_bytes), ("flags", 0), ("width", 64), ("mem_clk_max", 4800)]))
    for k, link in enumerate(io_links):
        t.write(d + f"/io_links/{k}/properties", io_link_props(n, *link))


def io_link_props(frm, to, kind, weight, max_bw):
    return props([
        ("type", kind), ("version_major", 0), ("version_minor", 0), ("node_from", frm), ("node_to", to),
        ("weight", weight), ("min_latency", 0), ("max_latency", 0), ("min_bandwidth", 312 if kind == 2 else 50000),
        ("max_bandwidth", max_bw), ("recommended_transfer_size", 0), ("recommended_sdma_engine_id_mask", 0),
        ("flags", 1)])


def kfd_gpu_node(t, n, gpu_id, name, g, bdf, minor):
    d = f"/sys/class/kfd/kfd/topology/nodes/{n}"
    bus, dev, fn = int(bdf[5:7], 16), int(bdf[8:10], 16), int(bdf[11], 16)
    t.write(d + "/gpu_id", f"{gpu_id}\n")
    t.write(d + "/name", name + "\n")
    t.write(d + "/properties", kfd_gpu_props(g, bus << 8 | dev << 3 | fn, minor))
    t.write(d + "/mem_banks/0/properties", props([
        ("heap_type", 1), ("size_in_bytes", g["vram_total"]), ("flags", 0), ("width", g["mem_width"]),
        ("mem_clk_max", g["mem_clk_max"])]))
    for k, link in enumerate(g["io_links"]):
        t.write(d + f"/io_links/{k}/properties", io_link_props(n, *link))


def kfd_common(t, generation=1):
    t.write("/sys/class/kfd/kfd/topology/generation_id", f"{generation}\n")
    t.write("/sys/class/kfd/kfd/topology/system_properties",
            "platform_oem 0\nplatform_id 0\nplatform_rev 0\n")


def kfd_process(t, pid, comm, vram_by_gpu_id):
    d = f"/sys/class/kfd/kfd/proc/{pid}"
    t.write(d + "/pasid", f"{pid % 4096 + 32768}\n")
    for gpu_id, vram in vram_by_gpu_id.items():
        t.write(d + f"/vram_{gpu_id}", f"{vram}\n")
        t.write(d + f"/sdma_{gpu_id}", "0\n")
    t.write(f"/proc/{pid}/comm", comm + "\n")


def conf(t, user, uid, groups, nodes):
    lines = ["# hip-smi fixture: who runs hip-smi and how the device nodes are owned",
             "# (tests run as root, so real modes could not show a permission problem).",
             f"user uid={uid} name={user} groups={','.join(groups)}"]
    for path, mode, owner, group in nodes:
        lines.append(f"node {path} mode={mode:04o} owner={owner} group={group}")
        t.write(path, "")
    t.write("/hip-smi-fixture.conf", "\n".join(lines) + "\n")


def etc_group(t, entries):
    base = [("root", 0, ""), ("adm", 4, ""), ("video", 44, ""), ("users", 100, "")]
    seen = {e[0] for e in entries}
    rows = [e for e in base if e[0] not in seen] + entries
    t.write("/etc/group", "".join(f"{n}:x:{gid}:{m}\n" for n, gid, m in rows))
    t.write("/etc/passwd", "root:x:0:0:root:/root:/bin/bash\n")


AMDGPU_IDS = """# List of AMDGPU IDs
#
# Syntax:
# device_id,\trevision_id,\tproduct_name        <-- single tab after comma

1.0.0
150E,\tC1,\tAMD Radeon 890M Graphics
15BF,\tC1,\tAMD Radeon 780M Graphics
73BF,\tC1,\tAMD Radeon RX 6800 XT
744C,\tC8,\tAMD Radeon RX 7900 XTX
744C,\tCC,\tAMD Radeon RX 7900 XT
74A1,\t00,\tAMD Instinct MI300X
"""


# ---- machines -------------------------------------------------------------------

def mi300x():
    t = Tree("mi300x")
    numa = [
        {"id": 0, "cpus": "0-95,192-287", "distance": [10, 32], "mem_total": 768 * GIB, "mem_free": 690 * GIB},
        {"id": 1, "cpus": "96-191,288-383", "distance": [32, 10], "mem_total": 768 * GIB, "mem_free": 702 * GIB},
    ]
    cpu = {"vendor_id": "AuthenticAMD", "family": 25, "model": 17, "stepping": 1,
           "name": "AMD EPYC 9654 96-Core Processor", "mhz": "2400.000", "cache": "1024 KB",
           "threads_per_socket": 192, "cores_per_socket": 96, "sockets": 2}
    host(t, "mi300x-node07", "6.8.0-49-generic", cpu, numa, 1536 * GIB, 1392 * GIB,
         (81234567, 1200, 9876543, 2876543210, 45678), "38.12 36.40 35.02 41/3120 998877",
         k10temp=52375, cur_khz=2400000, max_khz=3700000)
    module(t, "amdgpu", "6.8.5")  # DKMS (amdgpu-dkms) modules carry a version
    kfd_common(t)
    other_pci(t)
    bdfs = ["0000:05:00.0", "0000:26:00.0", "0000:46:00.0", "0000:65:00.0",
            "0000:85:00.0", "0000:a6:00.0", "0000:c6:00.0", "0000:e5:00.0"]
    gpu_ids = [45813, 33620, 11476, 62101, 10394, 52007, 24853, 40280]
    busy = [97, 96, 98, 95, 0, 0, 12, 0]
    power = [712.5, 698.0, 705.3, 690.9, 142.0, 139.5, 231.8, 140.2]
    kfd_cpu_node(t, 0, 192, 0, 768 * GIB, [(2 + k, 2, 20, 0) for k in range(4)], 3700)
    kfd_cpu_node(t, 1, 192, 192, 768 * GIB, [(6 + k, 2, 20, 0) for k in range(4)], 3700)
    for k, bdf in enumerate(bdfs):
        node, minor = 2 + k, 128 + k
        links = [(k // 4, 2, 20, 0)] + [(2 + j, 11, 15, 64000) for j in range(8) if j != k]
        g = {"simd_count": 1216, "simd_id_base": 2147487744 + k * 4096, "wave": 64, "arrays": 32,
             "sa_per_se": 1, "cu_per_sa": 10, "simd_per_cu": 4, "waves": 8, "gws": True,
             "gfx": 90402, "device": 0x74A1, "hive": 0x5C1F9A3E7B2D4C01, "xgmi_sdma": 14, "max_sclk": 2100,
             "unique_id": 0x1E2C3D4F5A6B7000 + k, "xcc": 8, "cpu_clk": 3700, "io_links": links,
             "vram_total": 206141652992, "mem_width": 8192, "mem_clk_max": 1300,
             "busy": busy[k], "mem_busy": busy[k] // 3,
             "vram_used": (170 * GIB + k * 3 * MIB) if busy[k] > 50 else (21 * GIB if k == 6 else 294 * MIB),
             "gtt_total": 1536 * GIB * 3 // 4, "gtt_used": 19 * MIB,
             "sclk": "0: 500Mhz\n1: 1300Mhz\n2: 2100Mhz *\n" if busy[k] > 50 else "0: 500Mhz *\n1: 1300Mhz\n2: 2100Mhz\n",
             "mclk": "0: 900Mhz\n1: 1300Mhz *\n", "vbios": "113-M3000100-102",
             "product_name": "AMD Instinct MI300X", "hwmon": 2 + k,
             # MI300 reports no edge sensor: junction and memory only.
             "temps": [("edge", None), ("junction", 78000 if busy[k] > 50 else 41000 + k * 250),
                       ("mem", 66000 if busy[k] > 50 else 38000 + k * 125)],
             "power1_input": int(power[k] * 1e6), "power1_cap": 750000000, "power1_cap_max": 750000000}
        d = pci_device(t, bdf, 0x1002, 0x74A1, 0x00, 0x120000, driver="amdgpu", numa=k // 4,
                       link=("32.0", 16, "32.0", 16))
        amdgpu_sysfs(t, d, k + 1, minor, g)
        kfd_gpu_node(t, node, gpu_ids[k], "ip discovery", g, bdf, minor)
    kfd_process(t, 4242, "python3", {gpu_ids[k]: 170 * GIB for k in range(4)})
    kfd_process(t, 5151, "rccl-tests", {gpu_ids[6]: 21 * GIB - 294 * MIB})
    t.write("/opt/rocm/.info/version", "6.2.0-66\n")
    t.write("/opt/rocm/lib/libhsa-runtime64.so.1", "")
    t.write("/usr/share/libdrm/amdgpu.ids", AMDGPU_IDS)
    etc_group(t, [("render", 109, "svc-ml"), ("svc-ml", 1001, "")])
    nodes = [("/dev/kfd", 0o660, "root", "render")]
    nodes += [(f"/dev/dri/renderD{128 + k}", 0o660, "root", "render") for k in range(8)]
    nodes += [(f"/dev/dri/card{k + 1}", 0o660, "root", "video") for k in range(8)]
    conf(t, "svc-ml", 1001, ["svc-ml", "render"], nodes)


def radeon_desktop():
    t = Tree("radeon-desktop")
    numa = [{"id": 0, "cpus": "0-31", "distance": [10], "mem_total": 64 * GIB, "mem_free": 41 * GIB}]
    cpu = {"vendor_id": "AuthenticAMD", "family": 25, "model": 97, "stepping": 2,
           "name": "AMD Ryzen 9 7950X 16-Core Processor", "mhz": "4491.310", "cache": "1024 KB",
           "threads_per_socket": 32, "cores_per_socket": 16, "sockets": 1}
    host(t, "workstation", "6.11.0-19-generic", cpu, numa, 64 * GIB, 47 * GIB,
         (3456789, 1234, 876543, 98765432, 12345), "1.27 0.98 0.85 2/1402 54321", k10temp=48875,
         cur_khz=4491310, max_khz=5881000)
    module(t, "amdgpu")  # in-tree
    kfd_common(t)
    other_pci(t)
    bdf = "0000:03:00.0"
    g = {"simd_count": 192, "simd_id_base": 2147487744, "wave": 32, "arrays": 12, "sa_per_se": 2,
         "cu_per_sa": 8, "simd_per_cu": 2, "gws": False, "gfx": 110000, "device": 0x744C, "max_sclk": 2526,
         "unique_id": 0, "cpu_clk": 5881, "io_links": [(0, 2, 20, 0)], "vram_total": 25753026560, "mem_width": 384,
         "mem_clk_max": 1249, "busy": 37, "mem_busy": 11, "vram_used": 3221225472 + 123 * MIB,
         "gtt_total": 32 * GIB, "gtt_used": 212 * MIB, "vram_vendor": "hynix",
         "sclk": "0: 500Mhz\n1: 2124Mhz *\n2: 2526Mhz\n", "mclk": "0: 96Mhz\n1: 456Mhz\n2: 772Mhz\n3: 1249Mhz *\n",
         "vbios": "113-D7020100-102", "hwmon": 1,
         "temps": [("edge", 47000), ("junction", 58000), ("mem", 62000)],
         "power1_average": 118000000, "power1_input": 121000000, "power1_cap": 327000000,
         "power1_cap_max": 402000000, "fan1_input": 1143, "pwm1": 77, "freq1_input": 2124000000,
         "freq2_input": 1249000000}
    d = pci_device(t, bdf, 0x1002, 0x744C, 0xC8, 0x030000, driver="amdgpu", link=("16.0", 16, "16.0", 16))
    pci_device(t, "0000:03:00.1", 0x1002, 0xAB30, 0x00, 0x040300, driver="snd_hda_intel")
    amdgpu_sysfs(t, d, 1, 128, g)
    kfd_cpu_node(t, 0, 32, 0, 64 * GIB, [(1, 2, 20, 0)], 5881)
    kfd_gpu_node(t, 1, 48839, "ip discovery", g, bdf, 128)
    kfd_process(t, 7002, "hip_vector_add", {48839: 2 * GIB})
    kfd_process(t, 7310, "ollama", {48839: 0})
    t.write("/opt/rocm/.info/version", "6.3.1-48\n")
    t.write("/opt/rocm/lib/libhsa-runtime64.so.1", "")
    t.write("/usr/share/libdrm/amdgpu.ids", AMDGPU_IDS)
    etc_group(t, [("render", 992, "maria"), ("video", 44, "maria"), ("maria", 1000, "")])
    conf(t, "maria", 1000, ["maria", "video", "render"],
         [("/dev/kfd", 0o660, "root", "render"), ("/dev/dri/renderD128", 0o660, "root", "render"),
          ("/dev/dri/card1", 0o660, "root", "video")])


def ryzen_ai_laptop():
    t = Tree("ryzen-ai-laptop")
    numa = [{"id": 0, "cpus": "0-23", "distance": [10], "mem_total": 32 * GIB, "mem_free": 12 * GIB}]
    cpu = {"vendor_id": "AuthenticAMD", "family": 26, "model": 36, "stepping": 0,
           "name": "AMD Ryzen AI 9 HX 370 w/ Radeon 890M", "mhz": "2000.000", "cache": "1024 KB",
           "threads_per_socket": 24, "cores_per_socket": 12, "sockets": 1, "memlock": 8388608}
    host(t, "zenbook", "6.14.0-15-generic", cpu, numa, 32 * GIB - 512 * MIB, 17 * GIB,
         (1234567, 345, 234567, 34567890, 4567), "0.42 0.61 0.70 1/1210 23456", k10temp=41250,
         cur_khz=2000000, max_khz=5157000)
    module(t, "amdgpu")
    module(t, "amdxdna")
    kfd_common(t)
    other_pci(t)
    bdf = "0000:c4:00.0"
    g = {"simd_count": 32, "simd_id_base": 2147487744, "wave": 32, "arrays": 2, "sa_per_se": 2,
         "cu_per_sa": 8, "simd_per_cu": 2, "gws": False, "gfx": 110500, "device": 0x150E, "max_sclk": 2900,
         "unique_id": 0, "cpu_clk": 5157, "io_links": [(0, 2, 20, 0)], "vram_total": 512 * MIB, "mem_width": 128,
         "mem_clk_max": 2800, "busy": 3, "vram_used": 301 * MIB, "gtt_total": 15 * GIB + 768 * MIB,
         "gtt_used": 1100 * MIB, "vram_vendor": "unknown",
         # The APU sleeps between frames: the active level is the deep-sleep pseudo level.
         "sclk": "S: 400Mhz *\n0: 600Mhz\n1: 1500Mhz\n2: 2900Mhz\n", "mclk": "0: 1000Mhz *\n1: 2800Mhz\n",
         "vbios": "113-STRXLGEN-001", "hwmon": 1, "temps": [("edge", 44000)],
         "power1_average": 9000000, "power1_input": 9000000}
    d = pci_device(t, bdf, 0x1002, 0x150E, 0xC1, 0x030000, driver="amdgpu", port="0000:00:08.1",
                   link=("16.0", 16, "16.0", 16))
    amdgpu_sysfs(t, d, 1, 128, g)
    kfd_cpu_node(t, 0, 24, 0, 32 * GIB - 512 * MIB, [(1, 2, 20, 0)], 5157)
    kfd_gpu_node(t, 1, 7245, "ip discovery", g, bdf, 128)
    npu = pci_device(t, "0000:c5:00.1", 0x1022, 0x17F0, 0x10, 0x118000, driver="amdxdna", port="0000:00:08.2")
    t.write(npu + "/power/runtime_status", "suspended\n")
    t.write(npu + "/vbnv", "RyzenAI-npu4\n")
    t.write(npu + "/device_type", "0\n")
    t.write(npu + "/fw_version", "1.0.0.166\n")
    t.write(npu + "/accel/accel0/dev", "261:0\n")
    t.link(npu + "/accel/accel0/device", "../../../0000:c5:00.1")
    t.link_abs("/sys/class/accel/accel0", npu + "/accel/accel0")
    t.write("/lib/firmware/amdnpu/17f0_10/npu.sbin.zst", "")
    kfd_process(t, 3120, "llama-server", {7245: 310 * MIB})
    t.write("/usr/lib/x86_64-linux-gnu/libhsa-runtime64.so.1", "")
    t.write("/usr/share/libdrm/amdgpu.ids", AMDGPU_IDS)
    etc_group(t, [("render", 991, "sam"), ("video", 44, "sam"), ("sam", 1000, "")])
    conf(t, "sam", 1000, ["sam", "video", "render"],
         [("/dev/kfd", 0o660, "root", "render"), ("/dev/dri/renderD128", 0o660, "root", "render"),
          ("/dev/dri/card1", 0o660, "root", "video"), ("/dev/accel/accel0", 0o660, "root", "render")])


def broken_permissions():
    """A Phoenix laptop where nothing is usable yet: the user was added to group
    render but has not logged in again, ROCm is not installed, the NVIDIA dGPU is
    on nouveau, and the kernel predates amdxdna."""
    t = Tree("broken-permissions")
    numa = [{"id": 0, "cpus": "0-15", "distance": [10], "mem_total": 16 * GIB, "mem_free": 5 * GIB}]
    cpu = {"vendor_id": "AuthenticAMD", "family": 25, "model": 116, "stepping": 1,
           "name": "AMD Ryzen 7 7840HS w/ Radeon 780M Graphics", "mhz": "1396.000", "cache": "1024 KB",
           "threads_per_socket": 16, "cores_per_socket": 8, "sockets": 1, "memlock": 8388608}
    host(t, "thinkpad", "6.8.0-31-generic", cpu, numa, 16 * GIB - 512 * MIB, 7 * GIB,
         (734567, 245, 134567, 24567890, 2567), "0.80 0.55 0.41 2/987 12345", k10temp=55500)
    module(t, "amdgpu")
    module(t, "nouveau")
    kfd_common(t)
    other_pci(t)
    bdf = "0000:65:00.0"
    g = {"simd_count": 24, "simd_id_base": 2147487744, "wave": 32, "arrays": 1, "sa_per_se": 2,
         "cu_per_sa": 6, "simd_per_cu": 2, "gws": False, "gfx": 110003, "device": 0x15BF, "max_sclk": 2700,
         "unique_id": 0, "cpu_clk": 5100, "io_links": [(0, 2, 20, 0)], "vram_total": 512 * MIB, "mem_width": 128,
         "mem_clk_max": 2800, "busy": 0, "vram_used": 97 * MIB, "gtt_total": 7 * GIB + 768 * MIB,
         "gtt_used": 260 * MIB, "sclk": "0: 800Mhz *\n1: 1600Mhz\n2: 2700Mhz\n", "mclk": "0: 400Mhz *\n1: 2800Mhz\n",
         "vbios": "113-PHXGENERIC-001", "hwmon": 1, "temps": [("edge", 46000)], "power1_average": 6000000}
    d = pci_device(t, bdf, 0x1002, 0x15BF, 0xC1, 0x030000, driver="amdgpu", port="0000:00:08.1",
                   link=("16.0", 16, "16.0", 16))
    amdgpu_sysfs(t, d, 1, 129, g)
    kfd_cpu_node(t, 0, 16, 0, 16 * GIB - 512 * MIB, [(1, 2, 20, 0)], 5100)
    kfd_gpu_node(t, 1, 51207, "ip discovery", g, bdf, 129)
    pci_device(t, "0000:01:00.0", 0x10DE, 0x28A0, 0xA1, 0x030000, driver="nouveau", port="0000:00:01.1",
               link=("8.0", 8, "16.0", 8))
    pci_device(t, "0000:66:00.1", 0x1022, 0x1502, 0x00, 0x118000, port="0000:00:08.2")
    t.write("/usr/share/libdrm/amdgpu.ids", AMDGPU_IDS)
    etc_group(t, [("render", 110, "alice"), ("video", 44, "alice"), ("alice", 1000, "")])
    conf(t, "alice", 1000, ["alice", "users"],
         [("/dev/kfd", 0o660, "root", "render"), ("/dev/dri/renderD129", 0o660, "root", "render"),
          ("/dev/dri/renderD128", 0o660, "root", "render"), ("/dev/dri/card1", 0o660, "root", "video")])


def nvidia_h200():
    """Two H200s; the GPU facts come from the fake NVML (tests/hip_smi/fake_nvml.c)."""
    t = Tree("nvidia-h200")
    numa = [
        {"id": 0, "cpus": "0-55,112-167", "distance": [10, 21], "mem_total": 1024 * GIB, "mem_free": 950 * GIB},
        {"id": 1, "cpus": "56-111,168-223", "distance": [21, 10], "mem_total": 1024 * GIB, "mem_free": 960 * GIB},
    ]
    cpu = {"vendor_id": "GenuineIntel", "family": 6, "model": 143, "stepping": 8,
           "name": "Intel(R) Xeon(R) Platinum 8480+", "mhz": "2000.000", "cache": "107520 KB",
           "threads_per_socket": 112, "cores_per_socket": 56, "sockets": 2}
    host(t, "h200-node", "6.8.0-60-generic", cpu, numa, 2048 * GIB, 1910 * GIB,
         (55234567, 1200, 3876543, 1976543210, 35678), "10.02 9.80 9.11 5/2840 77665")
    d = "/sys/devices/platform/coretemp.0/hwmon/hwmon1"
    t.write(d + "/name", "coretemp\n")
    t.write(d + "/temp1_input", "44000\n")
    t.write(d + "/temp1_label", "Package id 0\n")
    t.link_abs("/sys/class/hwmon/hwmon1", d)
    module(t, "nvidia", "580.159.04")
    other_pci(t)
    pci_device(t, "0000:18:00.0", 0x10DE, 0x2335, 0xA1, 0x030200, driver="nvidia", numa=0, port="0000:17:01.0")
    pci_device(t, "0000:9a:00.0", 0x10DE, 0x2335, 0xA1, 0x030200, driver="nvidia", numa=1, port="0000:99:01.0")
    t.write("/proc/driver/nvidia/version",
            "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  (fixture)\n")
    for pid, comm in ((9001, "python3"), (9002, "nvidia-persistenced"), (9003, "Xorg")):
        t.write(f"/proc/{pid}/comm", comm + "\n")
    t.write("/usr/lib/x86_64-linux-gnu/libcuda.so.1", "")
    t.write("/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1", "")
    etc_group(t, [("ubuntu", 1000, "")])
    conf(t, "ubuntu", 1000, ["ubuntu"],
         [("/dev/nvidiactl", 0o666, "root", "root"), ("/dev/nvidia0", 0o666, "root", "root"),
          ("/dev/nvidia1", 0o666, "root", "root"), ("/dev/nvidia-uvm", 0o666, "root", "root")])


def weft_user(t, folder, pid, start, comm, stat_start=None, rss_kb=None):
    """A process registered with weft's runtime (src/runtime/process_registry.cpp):
    FOLDER/PID names it; /proc/PID exists only when stat_start is given (a live
    process, or another one that reused the pid when stat_start differs)."""
    t.write(f"{folder}/{pid}", f"pid={pid}\nstart={start}\nname={comm}\nagents=cpu\n")
    if stat_start is None:
        return
    fields = ["S", "1", str(pid), str(pid), "0", "-1", "4194304"] + ["0"] * 12 + [str(stat_start), "0", "0"]
    t.write(f"/proc/{pid}/stat", f"{pid} ({comm}) " + " ".join(fields) + "\n")
    t.write(f"/proc/{pid}/comm", comm + "\n")
    if rss_kb is not None:
        t.write(f"/proc/{pid}/status", f"Name:\t{comm}\nVmPeak:\t  {rss_kb * 2} kB\nVmRSS:\t  {rss_kb} kB\n")


def cpu_host():
    """A CPU-only server running weft programs: the CPU agent's users come from
    weft's registration files (one live in each folder, one stale, one whose pid
    now belongs to another process, one stray file); the CPU's name is not valid
    UTF-8 (JSON must still parse); the node meminfo files are complete, as the
    kernel writes them (HugePages_* counts have no kB), with most memory in the
    page cache."""
    t = Tree("cpu-host")
    numa = [
        {"id": 0, "cpus": "0-15,32-47", "distance": [10, 20], "mem_total": 125 * GIB, "mem_free": 4505 * MIB},
        {"id": 1, "cpus": "16-31,48-63", "distance": [20, 10], "mem_total": 126 * GIB, "mem_free": 60 * GIB},
    ]
    cpu = {"vendor_id": "GenuineIntel", "family": 6, "model": 106, "stepping": 6,
           "name": "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz", "mhz": "2000.000", "cache": "49152 KB",
           "threads_per_socket": 32, "cores_per_socket": 16, "sockets": 2}
    # /proc/meminfo counts more than the nodes do, as in a VM whose hypervisor
    # hot-plugs memory: topo must say so.
    host(t, "cpu-server", "6.1.0-28-amd64", cpu, numa, 300 * GIB, 240 * GIB,
         (9876543, 120, 876543, 198765432, 5678), "3.10 2.90 2.70 4/912 5000")
    with open(t.path("/proc/cpuinfo"), "rb") as f:
        cpuinfo = f.read()
    # Firmware strings are bytes: a Latin-1 byte and a truncated sequence.
    t.write_bytes("/proc/cpuinfo", cpuinfo.replace(b"Gold 6338 CPU", b"Gold 6338 \xe9dition \xe2\x82 CPU"))
    for n in numa:
        kb = lambda b: b // 1024
        total, free = kb(n["mem_total"]), kb(n["mem_free"])
        file_pages = (total - free) * 3 // 4
        rows = [("MemTotal", total), ("MemFree", free), ("MemUsed", total - free), ("SwapCached", 0),
                ("Active", file_pages // 2), ("Inactive", file_pages // 2), ("Active(anon)", 102400),
                ("Inactive(anon)", 51200), ("Active(file)", file_pages // 2), ("Inactive(file)", file_pages // 2),
                ("Unevictable", 0), ("Mlocked", 0), ("Dirty", 128), ("Writeback", 0), ("FilePages", file_pages),
                ("Mapped", 204800), ("AnonPages", 153600), ("Shmem", 4096), ("KernelStack", 16384),
                ("PageTables", 8192), ("SecPageTables", 0), ("NFS_Unstable", 0), ("Bounce", 0),
                ("WritebackTmp", 0), ("KReclaimable", 409600), ("Slab", 614400), ("SReclaimable", 409600),
                ("SUnreclaim", 204800), ("AnonHugePages", 0), ("ShmemHugePages", 0), ("ShmemPmdMapped", 0),
                ("FileHugePages", 0), ("FilePmdMapped", 0)]
        text = "".join(f"Node {n['id']} {k + ':':<16}{v:>11} kB\n" for k, v in rows)
        text += "".join(f"Node {n['id']} {k + ':':<16}{0:>6}\n" for k in ("HugePages_Total", "HugePages_Free",
                                                                         "HugePages_Surp"))
        t.write(f"/sys/devices/system/node/node{n['id']}/meminfo", text)
    other_pci(t)
    weft_user(t, "/run/user/1000/weft", 4242, 987654, "train", stat_start=987654, rss_kb=2097152)
    weft_user(t, "/tmp/weft-1000", 4243, 111, "crashed")  # killed: no /proc/4243
    weft_user(t, "/tmp/weft-1000", 4244, 222, "old", stat_start=333)  # pid now someone else's
    weft_user(t, "/tmp/weft-1000", 4245, 5555, "infer (v2)", stat_start=5555, rss_kb=524288)
    t.write("/tmp/weft-1000/notes.txt", "not a registration\n")
    etc_group(t, [("dev", 1000, "")])
    conf(t, "dev", 1000, ["dev"], [])


def main():
    os.makedirs(OUT, exist_ok=True)
    for make in (mi300x, radeon_desktop, ryzen_ai_laptop, broken_permissions, nvidia_h200, cpu_host):
        make()
    print("fixtures written to", os.path.normpath(OUT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
