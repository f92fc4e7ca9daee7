# Sourced by bench/pack_for_device.sh and bench/pack_runtime_for_device.sh: the shared libraries a
# GPU machine has itself, which a pack must not carry (its own are newer or match its driver).
# drop_machine_libraries: paths on stdin, those a pack carries on stdout. Dropped: the C and C++
# runtimes (glibc's parts, libstdc++, libgcc_s) and CUDA's (the driver's libcuda and libnvidia-*, the
# toolkit's runtime, FFT and random libraries, anything under /usr/local/cuda).
drop_machine_libraries() {
  grep -vE '/(libc|libm|libdl|libpthread|librt|libresolv|libutil|ld-linux-x86-64|libstdc\+\+|libgcc_s|libcuda|libcudart|libcufft|libcurand)\.so|^/usr/local/cuda|/libnvidia'
}
