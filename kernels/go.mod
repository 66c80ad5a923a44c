module interleave.dev/kernels

go 1.21
