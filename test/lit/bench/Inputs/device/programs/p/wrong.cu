// stdout: checksum 2.5
// kernel: 0.100
