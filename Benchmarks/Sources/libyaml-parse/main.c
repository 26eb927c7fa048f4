// The floor under every YAML reader: libyaml's own event parse of each file named on the
// command line, with nothing built from the events. Yams wraps this parser, and so would any
// reader of Courier's; a generator's time is reported against it.
#include <stdio.h>
#include <stdlib.h>
#include <yaml.h>

static int parse(const char *path) {
    FILE *file = fopen(path, "rb");
    if (!file) {
        perror(path);
        return 1;
    }
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) {
        fprintf(stderr, "%s: cannot initialise libyaml\n", path);
        fclose(file);
        return 1;
    }
    yaml_parser_set_input_file(&parser, file);
    unsigned long events = 0;
    int done = 0;
    int status = 0;
    while (!done) {
        yaml_event_t event;
        if (!yaml_parser_parse(&parser, &event)) {
            fprintf(stderr, "%s:%lu:%lu: %s\n", path, (unsigned long)parser.problem_mark.line + 1,
                    (unsigned long)parser.problem_mark.column + 1, parser.problem ? parser.problem : "parse error");
            status = 1;
            break;
        }
        done = event.type == YAML_STREAM_END_EVENT;
        events += 1;
        yaml_event_delete(&event);
    }
    yaml_parser_delete(&parser);
    fclose(file);
    if (status == 0) printf("%s: %lu events\n", path, events);
    return status;
}

int main(int argc, char **argv) {
    int status = 0;
    for (int index = 1; index < argc; index++) status |= parse(argv[index]);
    return status;
}
