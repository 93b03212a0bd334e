module github.com/btfkit/btfkit

go 1.26.8

require (
	github.com/cilium/ebpf v0.22.0
	github.com/spf13/cobra v1.10.2
	github.com/ulikunitz/xz v0.5.17
)

require (
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/klauspost/compress v1.20.4
	github.com/spf13/pflag v1.1.0
	golang.org/x/sys v0.50.0
)
