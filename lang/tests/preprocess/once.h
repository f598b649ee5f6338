#pragma once
once_content __LINE__
