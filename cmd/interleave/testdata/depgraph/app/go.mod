module example.com/app

go 1.22

require (
	example.com/oldmod v0.0.0
	example.com/tagged v0.0.0
	github.com/patrickmn/go-cache v2.1.0+incompatible
)

replace (
	example.com/oldmod => ../oldmod
	example.com/tagged => ../tagged
)
