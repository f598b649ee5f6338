#ifndef GUARDED_H
#define GUARDED_H
#define GUARDED_VALUE 7
guarded_content
#endif
