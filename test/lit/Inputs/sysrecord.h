struct SysPoint { int x, y; };
