"""The live scoresheet's translated strings, handed to its JavaScript as JSON."""

from django import template
from django.utils.html import json_script
from django.utils.translation import gettext as _

register = template.Library()


@register.simple_tag
def scoresheet_strings():
    return json_script({
        "to_place": _("%(name)s (%(seat)s) to place"),
        "bonus": _("bonus play (Ingenious!)"),
        "may_swap": _("%(seat)s may swap now"),
        "over": _("Game over: %(result)s"),
        "result": _("Result %(result)s"),
        "no_points": _("0 points"),
        "refused": _("Refused"),
        "offline": _("No connection: the entry was not sent."),
        "submitted": _("Record submitted: view the game"),
    }, "scoresheet-strings")
