module interleave.dev

go 1.26
