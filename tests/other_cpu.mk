# Another CPU, simulated on this one: PyTorch's scalar kernels instead of AVX2/AVX-512, MKL's
# generic code path instead of the one it picks for this processor (MKL_CBWR=COMPATIBLE; its
# float64 products differ in the last bits, tests/test_work_units.py), and one thread for torch
# and the BLAS. The committed outputs must come out unchanged, as on a learner's machine.
# One definition, read by the Makefile (`make portability`) and by the browser suite, whose
# JupyterLab kernels compute this way (tests/browser/labserver.py).
OTHER_CPU := ATEN_CPU_CAPABILITY=default MKL_CBWR=COMPATIBLE OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
